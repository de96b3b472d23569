// A server a benchmark starts as a process of its own: resolved once its first stdout line (its URL) is out.
import { spawn } from 'node:child_process';

/**
 * Starts `node ARGS` and resolves with its URL (its first stdout line), the child, what it has printed on stderr so
 * far, and a stop() that ends it with SIGTERM and waits; later stdout is drained.
 */
export function startServer(args, env) {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk) => {
      text += chunk;
      const newline = text.indexOf('\n');
      if (newline < 0) return;
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolve({ url: text.slice(0, newline), child, stderr: () => stderr, stop: () => stop(child) });
    };
    child.stdout.on('data', onData);
    child.on('close', (code) => reject(new Error(`server exited ${code}: ${stderr}`)));
  });
}

function stop(child) {
  return new Promise((resolve) => {
    child.removeAllListeners('close');
    child.on('close', resolve);
    child.kill('SIGTERM');
  });
}
