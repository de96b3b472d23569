/** A warning given the first time only: a run says a thing once however many records show it. */
export function once(warn: (text: string) => void): (text: string) => void {
  let warned = false;
  return (text) => {
    if (!warned) warn(text);
    warned = true;
  };
}
