// @ts-check
'use strict';

// Entry points of a package: which declaration file answers each importable
// subpath. The exports map wins; without one, types/typings/main/index.d.ts
// give the root and top-level .d.ts files and folders with their own
// package.json give subpaths. typesVersions redirects paths when there is no
// exports map, as it does for the compiler.

const fs = require('fs');
const path = require('path');
const { readText, isRegular: isFile } = require('./regular');

const DECLARATION = /\.d\.(ts|mts|cts)$/;
// Patterns can match whole trees; past this many files a pattern is cut off
// so one odd package cannot make extraction unbounded.
const MAX_PATTERN_FILES = 2000;

/** @typedef {{subpath: string, file: string}} Entry */

/**
 * @param {string} pkgDir absolute, real path
 * @param {any} pkg parsed package.json
 * @param {string} tsVersion compiler version, for typesVersions
 * @returns {Entry[]}
 */
function findEntries(pkgDir, pkg, tsVersion) {
  /** @type {Entry[]} */
  const entries = [];
  const seen = new Set();
  /** @param {string} subpath @param {string | null} file */
  const add = (subpath, file) => {
    if (!file || seen.has(subpath)) return;
    seen.add(subpath);
    entries.push({ subpath, file });
  };

  if (pkg.exports !== undefined && pkg.exports !== null) {
    for (const [subpath, target] of subpathsOf(pkg.exports)) {
      if (subpath.includes('*')) {
        for (const [sp, file] of expandPattern(pkgDir, subpath, target)) add(sp, file);
        continue;
      }
      add(subpath, resolveTarget(pkgDir, target));
    }
    // An exports map without declarations for the root (only .mjs/.cjs
    // targets, no types condition) is common in packages typed for
    // node10 resolution: their types field still describes the root.
    if (!seen.has('.') && subpathsOf(pkg.exports).some(([sp]) => sp === '.')) {
      add('.', rootDeclaration(pkgDir, pkg, tsVersion));
    }
    return sortEntries(entries);
  }

  const versionPaths = pickTypesVersions(pkg.typesVersions, tsVersion);
  const mapped = mapper(pkgDir, versionPaths);
  const root = rootDeclaration(pkgDir, pkg, tsVersion);
  add('.', root);

  // Subpaths: top-level declaration files and folders with a package.json,
  // in the package root and in the folders typesVersions sends "*" to.
  const dirs = [''];
  if (versionPaths) {
    for (const targets of Object.values(versionPaths)) {
      for (const t of Array.isArray(targets) ? targets : []) {
        const m = /^(?:\.\/)?([^*]*)\/\*(?:\.d\.ts)?$/.exec(String(t));
        if (m && m[1] && !dirs.includes(m[1])) dirs.push(m[1]);
      }
    }
  }
  /** @type {Set<string>} */
  const names = new Set();
  for (const dir of dirs) {
    for (const ent of readDir(path.join(pkgDir, dir))) {
      if (ent.isFile() && /\.d\.ts$/.test(ent.name)) names.add(ent.name.replace(/\.d\.ts$/, ''));
      else if (ent.isDirectory() && ent.name !== 'node_modules' && !ent.name.startsWith('.') &&
        dir === '' && fs.existsSync(path.join(pkgDir, ent.name, 'package.json'))) names.add(ent.name);
    }
  }
  for (const name of [...names].sort()) {
    if (name === 'index') continue;
    const sub = readPackageJSON(path.join(pkgDir, name));
    let file = null;
    if (sub) {
      const rel = firstString(sub.types, sub.typings) || (typeof sub.main === 'string' ? sub.main : 'index.d.ts');
      file = declarationFor(pkgDir, path.posix.join(name, rel)) || declarationFor(pkgDir, name + '/index.d.ts');
    } else {
      file = mapped(name);
    }
    if (file && file !== root) add('./' + name, file);
  }
  return sortEntries(entries);
}

/**
 * Resolves a package-relative path to a declaration file through the
 * typesVersions paths that apply, else as written.
 * @param {string} pkgDir
 * @param {Record<string, string[]> | null} versionPaths
 * @returns {(rel: string) => string | null}
 */
function mapper(pkgDir, versionPaths) {
  return (rel) => {
    if (!versionPaths) return declarationFor(pkgDir, rel);
    for (const candidate of applyPaths(versionPaths, rel)) {
      const file = declarationFor(pkgDir, candidate);
      if (file) return file;
    }
    return declarationFor(pkgDir, rel);
  };
}

/**
 * The root's declaration file without an exports map: types, typings, the
 * .d.ts beside main, index.d.ts.
 * @param {string} pkgDir
 * @param {any} pkg
 * @param {string} tsVersion
 */
function rootDeclaration(pkgDir, pkg, tsVersion) {
  const mapped = mapper(pkgDir, pickTypesVersions(pkg.typesVersions, tsVersion));
  const rootRel = firstString(pkg.types, pkg.typings);
  let root = null;
  if (rootRel) root = mapped(rootRel);
  if (!root && typeof pkg.main === 'string') root = mapped(pkg.main);
  if (!root) root = mapped('index.d.ts') || mapped('index');
  return root;
}

/** @param {Entry[]} entries */
function sortEntries(entries) {
  return entries.sort((a, b) => (a.subpath === '.' ? -1 : b.subpath === '.' ? 1 : a.subpath < b.subpath ? -1 : a.subpath > b.subpath ? 1 : 0));
}

/**
 * The exports map as [subpath, target] pairs.
 * @param {any} exp
 * @returns {[string, any][]}
 */
function subpathsOf(exp) {
  if (typeof exp === 'string' || Array.isArray(exp)) return [['.', exp]];
  if (typeof exp !== 'object') return [];
  const keys = Object.keys(exp);
  if (keys.length > 0 && keys.every((k) => k.startsWith('.'))) return keys.map((k) => [k, exp[k]]);
  if (keys.some((k) => k.startsWith('.'))) return []; // mixed keys: invalid, as Node says
  return [['.', exp]];
}

const CONDITION_ORDER = ['types', 'import', 'default'];

/**
 * Candidate target strings of an exports value, best first: within a
 * conditions object types, import, default, then the rest in written order,
 * so the ESM declarations win over a CommonJS export = twin.
 * @param {any} value
 * @returns {string[]}
 */
function conditionTargets(value) {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(conditionTargets);
  if (!value || typeof value !== 'object') return [];
  const keys = Object.keys(value);
  const ordered = [...CONDITION_ORDER.filter((k) => keys.includes(k)), ...keys.filter((k) => !CONDITION_ORDER.includes(k))];
  return ordered.flatMap((k) => conditionTargets(value[k]));
}

/** @param {string} pkgDir @param {any} target */
function resolveTarget(pkgDir, target) {
  for (const t of conditionTargets(target)) {
    const file = declarationFor(pkgDir, t);
    if (file) return file;
  }
  return null;
}

/**
 * Expands a pattern subpath ("./*", "./utils/*") over the files its target
 * pattern matches.
 * @param {string} pkgDir
 * @param {string} subpath
 * @param {any} target
 * @returns {[string, string][]}
 */
function expandPattern(pkgDir, subpath, target) {
  /** @type {[string, string][]} */
  const out = [];
  const [subPre, subPost] = splitStar(subpath);
  if (subPre === null) return out;
  for (const t of conditionTargets(target)) {
    const [pre, post] = splitStar(t);
    if (pre === null) continue;
    const declPost = declarationSuffix(post);
    if (declPost === null) continue;
    const base = path.resolve(pkgDir, pre.replace(/[^/]*$/, ''));
    if (!inside(pkgDir, base)) continue;
    const relPre = path.relative(pkgDir, path.resolve(pkgDir, pre)).split(path.sep).join('/') + (pre.endsWith('/') ? '/' : '');
    for (const rel of listFiles(pkgDir, base)) {
      if (!rel.startsWith(relPre) || !rel.endsWith(declPost)) continue;
      const star = rel.slice(relPre.length, rel.length - declPost.length);
      if (star === '') continue;
      out.push([subPre + star + subPost, path.join(pkgDir, rel)]);
      if (out.length >= MAX_PATTERN_FILES) return out;
    }
    if (out.length > 0) return out;
  }
  return out;
}

/** @param {string} s @returns {[string|null, string]} */
function splitStar(s) {
  const i = s.indexOf('*');
  if (i < 0 || s.indexOf('*', i + 1) >= 0) return [null, ''];
  return [s.slice(0, i), s.slice(i + 1)];
}

/** @param {string} post what follows the star in a target pattern */
function declarationSuffix(post) {
  if (DECLARATION.test(post)) return post;
  if (/\.js$/.test(post)) return post.replace(/\.js$/, '.d.ts');
  if (/\.mjs$/.test(post)) return post.replace(/\.mjs$/, '.d.mts');
  if (/\.cjs$/.test(post)) return post.replace(/\.cjs$/, '.d.cts');
  if (post === '') return '.d.ts';
  return null;
}

/** @param {string} root @param {string} dir @returns {string[]} slash paths relative to root */
function listFiles(root, dir) {
  /** @type {string[]} */
  const out = [];
  const walk = (/** @type {string} */ d) => {
    for (const ent of readDir(d)) {
      const p = path.join(d, ent.name);
      if (ent.isDirectory()) {
        if (ent.name !== 'node_modules') walk(p);
      } else if (ent.isFile()) {
        out.push(path.relative(root, p).split(path.sep).join('/'));
      }
      if (out.length > MAX_PATTERN_FILES * 10) return;
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * The declaration file a package-relative path stands for: itself when it is
 * one, the .d.ts sibling of a .js file, or the path with .d.ts or
 * /index.d.ts appended.
 * @param {string} pkgDir
 * @param {string} rel
 * @returns {string | null}
 */
function declarationFor(pkgDir, rel) {
  if (typeof rel !== 'string' || rel === '') return null;
  const abs = path.resolve(pkgDir, rel);
  if (!inside(pkgDir, abs)) return null;
  /** @type {string[]} */
  let candidates;
  if (DECLARATION.test(abs)) candidates = [abs];
  else if (/\.js$/.test(abs)) candidates = [abs.replace(/\.js$/, '.d.ts')];
  else if (/\.mjs$/.test(abs)) candidates = [abs.replace(/\.mjs$/, '.d.mts')];
  else if (/\.cjs$/.test(abs)) candidates = [abs.replace(/\.cjs$/, '.d.cts')];
  else if (/\.(ts|tsx|mts|cts|json|css|node|wasm)$/.test(abs)) candidates = [];
  else candidates = [abs + '.d.ts', path.join(abs, 'index.d.ts')];
  for (const c of candidates) {
    if (isFile(c)) return c;
  }
  return null;
}

/**
 * The typesVersions paths that apply to this compiler version.
 * @param {any} typesVersions
 * @param {string} version
 * @returns {Record<string, string[]> | null}
 */
function pickTypesVersions(typesVersions, version) {
  if (!typesVersions || typeof typesVersions !== 'object') return null;
  for (const [range, paths] of Object.entries(typesVersions)) {
    if (paths && typeof paths === 'object' && satisfies(version, range)) return paths;
  }
  return null;
}

/**
 * The targets a typesVersions paths object maps rel to, best match first (an
 * exact key, then the pattern with the longest prefix).
 * @param {Record<string, string[]>} paths
 * @param {string} rel
 * @returns {string[]}
 */
function applyPaths(paths, rel) {
  const clean = rel.replace(/^\.\//, '');
  /** @type {{prefix: number, targets: string[]}[]} */
  const matches = [];
  for (const [key, targets] of Object.entries(paths)) {
    if (!Array.isArray(targets)) continue;
    if (key === clean) {
      matches.push({ prefix: Infinity, targets: targets.map(String) });
      continue;
    }
    const [pre, post] = splitStar(key);
    if (pre === null) continue;
    if (clean.length >= pre.length + post.length && clean.startsWith(pre) && clean.endsWith(post)) {
      const star = clean.slice(pre.length, clean.length - post.length);
      matches.push({ prefix: pre.length, targets: targets.map((t) => String(t).replace('*', star)) });
    }
  }
  matches.sort((a, b) => b.prefix - a.prefix);
  return matches.flatMap((m) => m.targets);
}

/**
 * A minimal semver range check for typesVersions keys (">=4.2", "<5.0",
 * ">=3.1 <4", "*", "a || b").
 * @param {string} version
 * @param {string} range
 */
function satisfies(version, range) {
  const v = parseVersion(version);
  return range.split('||').some((alt) => {
    const parts = alt.trim().split(/\s+/).filter(Boolean);
    return parts.every((p) => {
      if (p === '*' || p === 'x') return true;
      const m = /^(>=|<=|>|<|=|\^|~)?v?(\d+(?:\.\d+){0,2})/.exec(p);
      if (!m) return false;
      const op = m[1] || '=';
      const want = parseVersion(m[2]);
      const c = compare(v, want);
      switch (op) {
        case '>=': return c >= 0;
        case '<=': return c <= 0;
        case '>': return c > 0;
        case '<': return c < 0;
        default: {
          // A partial version (4, 4.2) matches every version it prefixes.
          const n = m[2].split('.').length;
          return v.slice(0, n).every((x, i) => x === want[i]) || (op === '^' && v[0] === want[0] && c >= 0) ||
            (op === '~' && v[0] === want[0] && v[1] === want[1] && c >= 0);
        }
      }
    });
  });
}

/** @param {string} s */
function parseVersion(s) {
  const nums = s.split('-')[0].split('.').map((x) => parseInt(x, 10) || 0);
  while (nums.length < 3) nums.push(0);
  return nums;
}

/** @param {number[]} a @param {number[]} b */
function compare(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/** @param {...any} values */
function firstString(...values) {
  for (const v of values) if (typeof v === 'string' && v !== '') return v;
  return null;
}

/** @param {string} dir */
function readPackageJSON(dir) {
  try {
    return JSON.parse(readText(path.join(dir, 'package.json')));
  } catch {
    return null;
  }
}

/** @param {string} dir */
function readDir(dir) {
  try {
    return fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

/** @param {string} root @param {string} p */
function inside(root, p) {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

module.exports = { findEntries, readPackageJSON, inside, conditionTargets, satisfies, applyPaths };
