// Types of supported-node.js for the tests that hold package.json and the launcher to it.
export declare const nodeFloors: readonly (readonly [number, number, number])[];
export declare function isSupportedNode(version: string): boolean;
export declare function supportedNodeWords(): string;
