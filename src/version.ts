// The program's version, from package.json (bundled in the single-file build).
import pkg from '../package.json' with { type: 'json' };

export const VERSION: string = pkg.version;
