#!/usr/bin/env node
// `make dist`: bundles src/cli/main.ts with ncc (CommonJS) and wraps it with Node's single executable support into dist/hublet.
//
// The bundle plus this node binary become one file. The `sqlite3` native addon travels inside it as a SEA asset;
// the generated main (see seaPrelude) unpacks it on first use to $XDG_CACHE_HOME/hublet/<version>-<hash>/ (written
// atomically) and loads it with process.dlopen. The build is skipped when dist/hublet is newer than every input;
// `--force` rebuilds anyway. Usage: node scripts/build-dist.mjs [--force]
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rel = (...parts) => path.join(root, ...parts);
const ENTRY = rel('src', 'cli', 'main.ts');
const OUT = rel('dist', 'hublet');
const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/**
 * What ncc emits besides the code, and where each goes. Chunks (`<id>.index.js`, from dynamic `import()`) are
 * inlined into the main script. ncc resolves sqlite3's `bindings('node_sqlite3.node')` to the asset below; the other
 * asset is pino's thread-stream worker, only started for pino transports, which hublet never configures. Any other
 * asset fails the build: a new dependency that loads files next to the bundle needs a decision.
 */
const CHUNK = /^[\w-]+\.index\.js$/;
const NCC_ASSETS = {
  'build/Release/node_sqlite3.node': { sea: 'node_sqlite3.node' },
  'worker.js': { ignore: 'pino thread-stream worker (pino transports are not used)' },
};
/**
 * Packages left out of the bundle: @grpc/grpc-js comes with @opentelemetry/sdk-node, whose gRPC exporters require it
 * only when one is made; hublet sends traces over HTTP (src/tracing/sdk.ts) and makes none. Bundled, it would bring
 * its .proto files as assets and a megabyte of code; left out, requiring it would fail ("not part of the hublet
 * executable"), which nothing does.
 */
const EXTERNALS = ['@grpc/grpc-js'];

/** Every file whose change makes dist/hublet stale. */
function inputFiles() {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.push(full);
    }
  };
  walk(rel('src'));
  files.push(
    rel('package.json'),
    rel('package-lock.json'),
    rel('tsconfig.json'),
    rel('node_modules', '.package-lock.json'),
    fileURLToPath(import.meta.url),
    process.execPath,
  );
  return files.filter((f) => fs.existsSync(f));
}

/** True when dist/hublet exists and is newer than every input. */
function isUpToDate() {
  if (!fs.existsSync(OUT)) return false;
  const built = fs.statSync(OUT).mtimeMs;
  return inputFiles().every((f) => fs.statSync(f).mtimeMs <= built);
}

/**
 * The start of the executable's main script. It runs inside Node's SEA loader, whose `require` only knows built-in
 * modules, and hands the bundle a `require` that also answers webpack's chunk requests (`./<id>.index.js`, from
 * `chunks`: functions in this same script) and ncc's native-addon requests (`<__dirname>/<asset>`, from the
 * executable's assets). Serialised with toString(): it must not use anything outside its parameters.
 */
function seaPrelude(seaRequire, build, chunks, runBundle) {
  // biome-ignore lint/suspicious/noRedundantUseStrict: serialised with toString() into the SEA main, a sloppy-mode script
  'use strict';
  // `hublet --version` alone answers before the bundle runs: the one command that needs none of it, and what scripts
  // and package managers call to check an install (commander would print the same line: src/cli/program.ts).
  const args = process.argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    process.stdout.write(`${build.version}\n`);
    return;
  }
  const fs = seaRequire('node:fs');
  const os = seaRequire('node:os');
  const path = seaRequire('node:path');
  const { isBuiltin } = seaRequire('node:module');

  // $XDG_CACHE_HOME (absolute paths only, as the XDG spec says), else ~/.cache; the dir is named by version and the
  // assets' content hash, so a different build never loads another build's addon.
  const xdg = process.env.XDG_CACHE_HOME;
  const cacheRoot = xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), '.cache');
  const dir = path.join(cacheRoot, 'hublet', `${build.version}-${build.hash}`);
  const filename = path.join(dir, 'hublet.js');
  const loaded = new Map();

  /** Writes the asset to the cache dir unless a complete copy is there already; returns its path. */
  function unpack(name) {
    const target = path.join(dir, name);
    try {
      if (fs.statSync(target).size === build.sizes[name]) return target;
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
    }
    const bytes = Buffer.from(seaRequire('node:sea').getAsset(name));
    // Write a private temporary file and rename it over the target: concurrent first runs never see half a file.
    const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const fd = fs.openSync(tmp, 'wx', 0o755);
      try {
        fs.writeSync(fd, bytes);
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(tmp, target);
    } catch (err) {
      try {
        fs.unlinkSync(tmp);
      } catch {
        // already gone
      }
      throw new Error(`hublet: cannot unpack ${name} to ${dir}: ${err.message} (set XDG_CACHE_HOME to a writable directory)`);
    }
    return target;
  }

  function bundleRequire(id) {
    if (isBuiltin(id)) return seaRequire(id);
    if (Object.hasOwn(chunks, id)) {
      if (!loaded.has(id)) {
        const module = { exports: {} };
        chunks[id].call(module.exports, module.exports, bundleRequire, module, filename, dir);
        loaded.set(id, module.exports);
      }
      return loaded.get(id);
    }
    const asset = typeof id === 'string' && id.startsWith(`${dir}/`) ? build.assets[id.slice(dir.length + 1)] : undefined;
    if (asset === undefined) {
      const err = new Error(`Cannot find module '${id}' (not part of the hublet executable)`);
      err.code = 'MODULE_NOT_FOUND';
      throw err;
    }
    if (!loaded.has(asset)) {
      const module = { exports: {} };
      process.dlopen(module, unpack(asset), os.constants.dlopen.RTLD_NOW);
      loaded.set(asset, module.exports);
    }
    return loaded.get(asset);
  }

  // ncc's bundle finds its assets relative to __dirname: pointing it at the cache dir routes them to bundleRequire.
  runBundle(bundleRequire, filename, dir);
}

/** Runs a build tool quietly; its output becomes part of the error when it fails. */
function run(command, args) {
  try {
    execFileSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 2 ** 20 });
  } catch (err) {
    if (err.code === 'ENOENT') throw err;
    const output = `${err.stdout ?? ''}${err.stderr ?? ''}`.trim();
    throw new Error(`${path.basename(command)} ${args.join(' ')} failed:\n${output}`);
  }
}

/** Drops symbols and debug info from the node copy when binutils' strip is installed (about 12 MiB smaller). */
function stripDebugInfo(file) {
  try {
    run('strip', [file]);
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
    console.log('dist: `strip` not found; keeping the node binary as it is');
  }
}

function sha256(...chunks) {
  const hash = createHash('sha256');
  for (const c of chunks) hash.update(c);
  return hash.digest('hex');
}

async function build() {
  const started = Date.now();
  const step = (label) => console.log(`dist: ${label} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
  const pkg = JSON.parse(fs.readFileSync(rel('package.json'), 'utf8'));

  // 1. Bundle. esm: false makes ncc emit CommonJS (the SEA main must be a script) from our ESM TypeScript.
  // transpileOnly: `make typecheck` checks types; the bundle only needs JavaScript. cache: false, because webpack's
  // cache (33 MB in /tmp) makes this build slower, not faster.
  const ncc = require('@vercel/ncc');
  const { code, assets } = await ncc(ENTRY, {
    esm: false,
    transpileOnly: true,
    cache: false,
    target: 'es2022',
    sourceMap: false,
    sourceMapRegister: false,
    minify: false,
    quiet: true,
    externals: EXTERNALS,
  });
  const chunkBytes = Object.entries(assets)
    .filter(([n]) => CHUNK.test(n))
    .reduce((sum, [, a]) => sum + a.source.length, 0);
  step(`bundled ${((code.length + chunkBytes) / 1e6).toFixed(1)} MB of JavaScript`);

  const seaAssets = {}; // ncc asset path -> SEA asset name
  const seaFiles = {}; // SEA asset name -> bytes
  const chunks = {}; // `./<chunk file>` (what webpack requires) -> its source
  for (const [name, asset] of Object.entries(assets)) {
    if (CHUNK.test(name)) {
      chunks[`./${name}`] = String(asset.source);
      continue;
    }
    const rule = NCC_ASSETS[name];
    if (!rule) throw new Error(`ncc emitted an unexpected asset ${name}: add it to NCC_ASSETS in scripts/build-dist.mjs`);
    if (rule.ignore) continue;
    seaAssets[name] = rule.sea;
    seaFiles[rule.sea] = Buffer.isBuffer(asset.source) ? asset.source : Buffer.from(asset.source);
  }
  const sources = [code, ...Object.values(chunks)];
  for (const name of Object.keys(NCC_ASSETS).filter((n) => NCC_ASSETS[n].sea)) {
    if (!seaAssets[name]) throw new Error(`ncc did not emit ${name}: is the dependency still bundled?`);
    // The bundle's runtime calls webpack's require `__nccwpck_require__`; modules in chunks call it `__webpack_require__`.
    const relative = ['__nccwpck_require__', '__webpack_require__'].map((r) => `${r}.ab + ${JSON.stringify(name)}`);
    if (!sources.some((source) => relative.some((expr) => source.includes(expr)))) {
      throw new Error(`the bundle does not load ${name} relative to __dirname; the SEA prelude cannot serve it`);
    }
  }

  // A path into this checkout would make the executable work here and nowhere else (e.g. a createRequire that
  // webpack left alone, resolving packages from this node_modules at run time).
  if (sources.some((source) => source.includes(root))) throw new Error(`the bundle refers to ${root}; something escaped bundling`);

  // 2. The main script: prelude, chunks and bundle, the bundle's require/__filename/__dirname supplied by the prelude.
  // Chunks become functions of the CommonJS wrapper's shape, in parentheses so V8 compiles them with the script
  // (and they land in the code cache) rather than on first call.
  const hash = sha256(
    pkg.version,
    ...Object.keys(seaFiles)
      .sort()
      .flatMap((n) => [n, seaFiles[n]]),
  ).slice(0, 16);
  const sizes = Object.fromEntries(Object.entries(seaFiles).map(([n, bytes]) => [n, bytes.length]));
  const buildInfo = { version: pkg.version, hash, assets: seaAssets, sizes };
  const main = [
    `// hublet ${pkg.version} single executable main, generated by scripts/build-dist.mjs.`,
    `(${seaPrelude.toString()})(require, ${JSON.stringify(buildInfo)}, {`,
    ...Object.entries(chunks).map(
      ([id, source]) => `${JSON.stringify(id)}: (function (exports, require, module, __filename, __dirname) {\n${source}\n}),`,
    ),
    '}, function (require, __filename, __dirname) {',
    code,
    '});',
    '',
  ].join('\n');

  const work = fs.mkdtempSync(rel('dist', '.build-'));
  try {
    fs.writeFileSync(path.join(work, 'main.cjs'), main);
    const seaConfig = {
      main: path.join(work, 'main.cjs'),
      output: path.join(work, 'sea.blob'),
      disableExperimentalSEAWarning: true,
      useCodeCache: true,
      assets: {},
    };
    for (const [name, bytes] of Object.entries(seaFiles)) {
      fs.writeFileSync(path.join(work, name), bytes);
      seaConfig.assets[name] = path.join(work, name);
    }
    fs.writeFileSync(path.join(work, 'sea-config.json'), JSON.stringify(seaConfig, null, 2));

    // 3. The preparation blob (code cache included), then a copy of this node binary with the blob injected.
    run(process.execPath, ['--experimental-sea-config', path.join(work, 'sea-config.json')]);
    step('prepared the SEA blob');
    const exe = path.join(work, 'hublet');
    fs.copyFileSync(process.execPath, exe);
    fs.chmodSync(exe, 0o755);
    stripDebugInfo(exe);
    // postject's CLI in a child: its ELF library prints harmless warnings about this binary's notes, shown on failure.
    const postject = path.join(path.dirname(require.resolve('postject/package.json')), 'dist', 'cli.js');
    run(process.execPath, [postject, exe, 'NODE_SEA_BLOB', seaConfig.output, '--sentinel-fuse', SENTINEL_FUSE]);
    step('injected it into a copy of node');

    // 4. A smoke test before the file replaces dist/hublet (rename: readers never see half an executable).
    const version = execFileSync(exe, ['--version'], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }).trim();
    if (version !== pkg.version) throw new Error(`the built executable says ${JSON.stringify(version)}, expected ${pkg.version}`);
    // Dated when the build started: a source saved while it ran is newer, so the next `make dist` rebuilds.
    fs.utimesSync(exe, started / 1000, started / 1000);
    fs.renameSync(exe, OUT);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const size = fs.statSync(OUT).size;
  console.log(
    `dist: built dist/hublet ${pkg.version}, ${(size / 2 ** 20).toFixed(1)} MiB, in ${((Date.now() - started) / 1000).toFixed(1)}s`,
  );
}

const force = process.argv.includes('--force');
if (!force && isUpToDate()) {
  console.log('dist: dist/hublet is up to date');
} else {
  fs.mkdirSync(rel('dist'), { recursive: true });
  await build();
}
