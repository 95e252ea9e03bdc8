/** Types of scripts/electron-binary.mjs for the TypeScript that imports it (the Electron e2e). */
export declare function packageDir(name: string): string | null;
export declare function packageVersion(dir: string): string;
export declare function findElectron(): { exe: string; version: string } | null;
