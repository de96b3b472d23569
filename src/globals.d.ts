/** Replaced at build time with package.json's version (scripts/build-info.mjs). */
declare const B2BCTL_VERSION: string;
/** Replaced at build time with what `--version` prints: the version and the commit built from. */
declare const B2BCTL_VERSION_LINE: string;

/** JSON.rawJSON (JSON.parse source text access; Node 22 and later), which TypeScript's ES2023 library lacks. */
interface JSON {
  rawJSON(text: string): unknown;
}
