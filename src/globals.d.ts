/** Replaced at build time with package.json's version (scripts/build.mjs). */
declare const B2BCTL_VERSION: string;
