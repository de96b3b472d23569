/** What `action` throws, or undefined when it returns: for checking an error's fields beside its type. */
export function thrownBy(action: () => unknown): unknown {
  try {
    action();
    return undefined;
  } catch (error) {
    return error;
  }
}
