/**
 * A thread's first module when b2bctl runs from its sources (the tests, under vitest): Node runs TypeScript by
 * stripping its types, but leaves the sources' imports as written, `./module.js` for `./module.ts`; this hook
 * resolves them to the `.ts` file, then loads the thread's module, named by the last argument
 * (thread-module.ts's startThread). Built b2bctl never loads it: its threads are bundled modules.
 * It imports nothing of the sources itself: a static import would be resolved before the hook is registered.
 */
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    const typescriptSibling =
      specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts') === true;
    return nextResolve(typescriptSibling ? `${specifier.slice(0, -'.js'.length)}.ts` : specifier, context);
  },
});

const threadModule = process.argv.at(-1);
if (threadModule === undefined) throw new Error('no thread module named to load');
await import(threadModule);
