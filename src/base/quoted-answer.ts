import { collapsedOneLine } from '../lib/one-line.js';

/**
 * An answer's body (an ERP's, the platform's, a proxy's) as a log line or an error may quote it: on one line and
 * bounded. A log line is one event to journald or a log shipper; a line break in it leaves the rest as orphan lines,
 * each taken for an event of its own and found by no grep for the event it belongs to. An HTML page (a web
 * server's or a gateway's error page) is named by its title and shown as its text, not as its markup.
 */
export function quotedAnswer(text: string, longest = 200): string {
  const shown = looksLikeHtml(text) ? htmlPageText(text) : collapsedOneLine(text);
  return shown.length > longest ? `${shown.slice(0, longest)}…` : shown;
}

/**
 * An answer's JSON (already one line) as a message quotes it: whole up to `longest` characters, else its first
 * `longest - 1` and `…`. One cut for every answer the platform's readers quote (a result, a refusal, a page that is
 * no page), which each wrote for itself.
 */
export function quotedJson(json: string, longest: number): string {
  return json.length > longest ? `${json.slice(0, longest - 1)}…` : json;
}

/**
 * A body that starts as an HTML page does, whatever its label said: an XHTML page too, behind its XML declaration
 * (`<?xml version="1.0" ?> <!DOCTYPE html …>`, tinyproxy's error pages), which was quoted as raw markup (a user test).
 */
export function looksLikeHtml(text: string): boolean {
  return /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(text.slice(0, 300));
}

/** `an HTML page ("Error response"): Error code: 501 Message: …`: its title, then the words a reader would see. */
function htmlPageText(html: string): string {
  const title = collapsedOneLine(decodeEntities(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '')).slice(0, 80);
  const words = collapsedOneLine(
    decodeEntities(
      html
        .replace(/<head[\s>][\s\S]*?<\/head>/gi, ' ')
        .replace(/<(script|style)[\s>][\s\S]*?<\/\1>/gi, ' ')
        .replace(/<!--[\s\S]*?-->/g, ' ')
        .replace(/<[^>]*>/g, ' '),
    ),
  );
  return `an HTML page${title ? ` ("${title}")` : ''}${words ? `: ${words}` : ''}`;
}

const namedEntities: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The entities an error page uses most; any other is left as written. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return namedEntities[name.toLowerCase()] ?? entity;
  });
}
