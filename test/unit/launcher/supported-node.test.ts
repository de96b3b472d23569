import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isSupportedNode, nodeFloors, supportedNodeWords } from '../../../bin/supported-node.js';

/*
 * The supported Nodes are written once, in bin/supported-node.js: the launcher refuses the others and .ci/run picks
 * a Node of each line by it. package.json's engines (what npm warns about at install) is held to it here.
 */
describe('the supported Nodes', () => {
  it('are the floors of the maintained lines, and every line from the last on', () => {
    const accepted = ['22.22.2', '22.23.0', '22.30.1', '24.15.0', '24.21.3', '26.0.0', '26.10.0', '27.0.0', '30.2.1'];
    const refused = ['20.20.2', '21.7.3', '22.12.0', '22.22.1', '23.11.0', '24.14.9', '25.9.0', '18.20.8'];
    for (const version of accepted) expect([version, isSupportedNode(version)]).toEqual([version, true]);
    for (const version of refused) expect([version, isSupportedNode(version)]).toEqual([version, false]);
  });

  it("are what package.json's engines says to npm", () => {
    const engines = (JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines.node;
    const last = nodeFloors.at(-1) as readonly [number, number, number];
    const ranges = [...nodeFloors.slice(0, -1).map((floor) => `^${floor.join('.')}`), `>=${last[0]}`];
    expect(engines).toBe(ranges.join(' || '));
  });

  it('are said in words the refusal prints', () => {
    expect(supportedNodeWords()).toBe('22.22.2 or a later 22, 24.15 or a later 24, or 26 and later');
  });
});
