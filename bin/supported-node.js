// The Nodes that run b2bctl, in one place: the launcher refuses others, `.ci/run` picks a Node of each line by it,
// and a unit test holds package.json's `engines` to it. The maintained lines at the patch b2bctl's dependencies
// need (undici 8 needs 22.19, @inquirer/prompts 22.22.2 or 24.15), and 26 onwards; the odd lines are out of support.
// Plain JavaScript with no import: the launcher loads it on every start, under any Node, before it knows the Node.

/** The first release of each even line b2bctl runs on; every line after the last runs it from its first release. */
export const nodeFloors = [
  [22, 22, 2],
  [24, 15, 0],
  [26, 0, 0],
];

/** Whether a Node version (`process.versions.node`) is one b2bctl runs on. */
export function isSupportedNode(version) {
  const [major, minor, patch] = version.split('.').map(Number);
  const last = nodeFloors[nodeFloors.length - 1];
  const floor = major > last[0] ? [major, 0, 0] : nodeFloors.find(([line]) => line === major);
  if (!floor) return false;
  return minor > floor[1] || (minor === floor[1] && patch >= floor[2]);
}

/** The versions as a person reads them: "22.22.2 or a later 22, 24.15 or a later 24, or 26 and later". */
export function supportedNodeWords() {
  const lines = nodeFloors.slice(0, -1).map((floor) => `${shownFloor(floor)} or a later ${floor[0]}`);
  return `${lines.join(', ')}, or ${nodeFloors[nodeFloors.length - 1][0]} and later`;
}

/** A floor as a release is named: 24.15 for 24.15.0, 22.22.2 as it is. */
function shownFloor([major, minor, patch]) {
  return patch === 0 ? `${major}.${minor}` : `${major}.${minor}.${patch}`;
}
