/** Types of scripts/service-bundle.mjs for the TypeScript that imports it (bench, tests). */
export declare const ROOT: string;
export declare const BUNDLE: string;
export declare function newestMtime(path: string): number;
export declare function bundleIsFresh(): boolean;
export declare function buildServiceBundle(): Promise<void>;
