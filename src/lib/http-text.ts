/** Small readings of HTTP text shared by the client and the receiver. */

/** `application/x-www-form-urlencoded` text decoded (`+` is a space); the text as it is when it is not valid. */
export function formDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

/** A header's value as one text: the first, where a header came more than once. */
export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
