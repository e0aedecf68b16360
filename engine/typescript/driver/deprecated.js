// @ts-check
'use strict';

// Deprecated object-literal keys, judged in the overlay. TypeScript reports
// a @deprecated name where code reads it (6385 at a property access, an
// identifier, a JSX attribute) but not where an object literal writes it:
// `{ message: 'x' }` passed where the target's params type marks `message`
// @deprecated is no suggestion diagnostic at all. Nor can Signal A's join
// see it: the key resolves through the contextual type, which is a
// different declaration in each version (zod 3's errorUtil.ErrMessage
// literal, zod 4's $ZodCheckParams), so the target's deprecation never
// meets the installed usage's path.
//
// So the overlay program, which already type-checked the files in scope,
// is asked directly: a key whose contextual type's property is declared
// @deprecated inside a linked target, where the baseline program's
// property for the same key was not (a deprecation the installed version
// already had is not the upgrade's). The declaration's place in the target
// (file and name offset, as the surface records it) lets the engine name
// the key by the target's canonical path; so does the place of the type
// the key was typed by (its container), which names it better where one
// declaration serves many types (zod 4 declares message once, in the
// generic Params, for every params type).

const path = require('path');
const { real, inside } = require('./paths');
const { deprecatedText } = require('./jsdoc');

/**
 * @typedef {import('typescript').Program} Program
 * @typedef {{file: string, line: number, column: number, start: number, end: number, name: string, access: string,
 *   package: string, declFile: string, declPos: number, containerFile: string, containerPos: number, message: string}} DeprecatedKey
 * @typedef {{files: string[]}} KeyUnit
 */

/**
 * @param {typeof import('typescript')} ts
 * @param {{u: KeyUnit, program: Program}[]} programs the overlay's programs
 * @param {{name: string, dir: string}[]} remap the linked targets
 * @param {(u: any) => Program} baseline the baseline program of a unit (built on demand)
 * @param {(f: string) => string} rel repository-relative names
 * @param {Set<string>} names the member names the targets deprecate: only
 *   keys of these names can be one, and most upgrades deprecate none
 * @returns {DeprecatedKey[]}
 */
function deprecatedKeys(ts, programs, remap, baseline, rel, names) {
  if (remap.length === 0 || names.size === 0) return [];
  /** @type {Map<string, {name: string, dir: string} | null>} */
  const owners = new Map();
  /** @param {string} fileName */
  const ownerOf = (fileName) => {
    let o = owners.get(fileName);
    if (o === undefined) {
      const r = real(fileName);
      o = remap.find((m) => inside(m.dir, r)) || null;
      owners.set(fileName, o);
    }
    return o;
  };
  /** @type {DeprecatedKey[]} */
  const out = [];
  for (const { u, program } of programs) {
    const checker = program.getTypeChecker();
    /** @type {{sf: import('typescript').SourceFile, key: import('typescript').ObjectLiteralElementLike, name: string, found: DeprecatedKey}[]} */
    const candidates = [];
    for (const f of u.files) {
      const sf = program.getSourceFile(f);
      if (!sf || sf.isDeclarationFile) continue;
      forEachKey(ts, sf, (obj, key, name) => {
        if (!names.has(name)) return;
        const typed = contextualProperty(ts, checker, obj, name);
        if (!typed) return;
        const prop = typed.prop;
        const decls = (prop.declarations || []).filter((d) => ownerOf(d.getSourceFile().fileName));
        if (decls.length === 0) return;
        const texts = decls.map((d) => deprecatedText(ts, d));
        if (texts.some((t) => t === undefined)) return;
        const decl = decls[0];
        const owner = /** @type {{name: string, dir: string}} */ (ownerOf(decl.getSourceFile().fileName));
        const place = (/** @type {import('typescript').Declaration} */ d) => {
          const dsf = d.getSourceFile();
          const named = /** @type {any} */ (d).name;
          return {
            file: path.relative(owner.dir, real(dsf.fileName)).split(path.sep).join('/'),
            pos: named && typeof named.getStart === 'function' ? named.getStart(dsf) : d.getStart(dsf),
          };
        };
        const at = place(decl);
        const cdecl = containerOf(ts, checker, typed.type, name) || parameterContainer(ts, checker, obj, name);
        const container = cdecl && ownerOf(cdecl.getSourceFile().fileName) === owner ? place(cdecl) : { file: '', pos: 0 };
        const nameNode = /** @type {import('typescript').Node} */ (key.name);
        const start = nameNode.getStart(sf);
        const lc = sf.getLineAndCharacterOfPosition(start);
        candidates.push({
          sf, key, name,
          found: {
            file: rel(sf.fileName), line: lc.line + 1, column: lc.character + 1, start, end: nameNode.end, name,
            access: implementsFunction(ts, key) ? 'implement' : 'write',
            package: owner.name,
            declFile: at.file,
            declPos: at.pos,
            containerFile: container.file,
            containerPos: container.pos,
            message: /** @type {string} */ (texts[0]),
          },
        });
      });
    }
    if (candidates.length === 0) continue;
    // The baseline's view of the same keys: the sources are shared, so the
    // same file is (almost always) the same parsed tree.
    const base = baseline(u);
    const bchecker = base.getTypeChecker();
    for (const c of candidates) {
      const bsf = base.getSourceFile(c.sf.fileName);
      const bkey = bsf === c.sf ? c.key : bsf ? keyAt(ts, bsf, c.found.start) : undefined;
      if (bkey && bkey.parent && ts.isObjectLiteralExpression(bkey.parent)) {
        const before = contextualProperty(ts, bchecker, bkey.parent, c.name);
        if (before && (before.prop.declarations || []).some((d) => deprecatedText(ts, d) !== undefined)) continue;
      }
      out.push(c.found);
    }
  }
  out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.start - b.start));
  return out;
}

/**
 * Calls fn for every named key of every object literal in the file.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').SourceFile} sf
 * @param {(obj: import('typescript').ObjectLiteralExpression, key: import('typescript').ObjectLiteralElementLike, name: string) => void} fn
 */
function forEachKey(ts, sf, fn) {
  /** @param {import('typescript').Node} node */
  const visit = (node) => {
    if (ts.isObjectLiteralExpression(node)) {
      for (const p of node.properties) {
        const name = keyName(ts, p);
        if (name !== undefined) fn(node, p, name);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

/**
 * The key's name, for the members that write one (a spread has none).
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').ObjectLiteralElementLike} p
 */
function keyName(ts, p) {
  if (ts.isSpreadAssignment(p) || !p.name) return undefined;
  const n = p.name;
  if (ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return n.text;
  return undefined;
}

/**
 * The property the literal's contextual type declares for name, and the
 * type that has it: the first member of a union that has it (null and
 * undefined left out).
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').TypeChecker} checker
 * @param {import('typescript').ObjectLiteralExpression} obj
 * @param {string} name
 */
function contextualProperty(ts, checker, obj, name) {
  let ctype;
  try {
    ctype = checker.getContextualType(obj);
  } catch {
    return undefined;
  }
  if (!ctype) return undefined;
  const types = ctype.isUnion() ? ctype.types : [ctype];
  for (const t of types) {
    if (t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Void)) continue;
    const prop = checker.getPropertyOfType(t, name);
    if (prop) return { prop, type: t };
  }
  return undefined;
}

/**
 * The declaration of the named type that gives the key its property: the
 * type itself, else the member of an intersection that has the property;
 * undefined for an anonymous type.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').TypeChecker} checker
 * @param {import('typescript').Type} type
 * @param {string} name
 * @returns {import('typescript').Declaration | undefined}
 */
function containerOf(ts, checker, type, name) {
  const parts = type.isIntersection() ? [type, ...type.types] : [type];
  for (const t of parts) {
    const s = t.aliasSymbol || t.getSymbol();
    if (!s || s.escapedName === ts.InternalSymbolName.Type || s.escapedName === ts.InternalSymbolName.Object) continue;
    if (t !== type && !checker.getPropertyOfType(t, name)) continue;
    const d = (s.declarations || [])[0];
    if (d) return d;
  }
  return undefined;
}

/**
 * For a literal passed straight to a call whose contextual type is
 * anonymous (zod 4's check params are mapped types that keep no name):
 * the named type the called parameter is declared with
 * (`params?: string | $ZodCheckMinLengthParams`) that has the property.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').TypeChecker} checker
 * @param {import('typescript').ObjectLiteralExpression} obj
 * @param {string} name
 * @returns {import('typescript').Declaration | undefined}
 */
function parameterContainer(ts, checker, obj, name) {
  /** @type {import('typescript').Node} */
  let n = obj;
  while (n.parent && ts.isParenthesizedExpression(n.parent)) n = n.parent;
  const call = n.parent;
  if (!call || !(ts.isCallExpression(call) || ts.isNewExpression(call)) || !call.arguments) return undefined;
  const i = call.arguments.indexOf(/** @type {import('typescript').Expression} */ (n));
  if (i < 0) return undefined;
  let decl;
  try {
    const sig = checker.getResolvedSignature(call);
    decl = sig && sig.declaration;
  } catch {
    return undefined;
  }
  if (!decl || ts.isJSDocSignature(decl) || decl.parameters.length === 0) return undefined;
  const param = decl.parameters[Math.min(i, decl.parameters.length - 1)];
  if (!param || !param.type) return undefined;
  const refs = ts.isUnionTypeNode(param.type) ? param.type.types : [param.type];
  for (const r of refs) {
    if (!ts.isTypeReferenceNode(r)) continue;
    let s = checker.getSymbolAtLocation(r.typeName);
    if (s && s.flags & ts.SymbolFlags.Alias) s = checker.getAliasedSymbol(s);
    if (!s || !s.declarations || s.declarations.length === 0) continue;
    if (!checker.getPropertyOfType(checker.getTypeFromTypeNode(r), name)) continue;
    return s.declarations[0];
  }
  return undefined;
}

/**
 * The object-literal member whose name starts at start.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').SourceFile} sf
 * @param {number} start
 * @returns {import('typescript').ObjectLiteralElementLike | undefined}
 */
function keyAt(ts, sf, start) {
  /** @type {import('typescript').ObjectLiteralElementLike | undefined} */
  let found;
  /** @param {import('typescript').Node} node */
  const visit = (node) => {
    if (found || start < node.pos || start >= node.end) return;
    if (ts.isObjectLiteralExpression(node)) {
      for (const p of node.properties) {
        if (p.name && p.name.getStart(sf) === start) {
          found = p;
          return;
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/**
 * A member that gives a function (method, accessor, function value)
 * implements the property; any other writes it.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').ObjectLiteralElementLike} p
 */
function implementsFunction(ts, p) {
  if (ts.isMethodDeclaration(p) || ts.isGetAccessorDeclaration(p) || ts.isSetAccessorDeclaration(p)) return true;
  if (!ts.isPropertyAssignment(p)) return false;
  let e = p.initializer;
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
  return ts.isArrowFunction(e) || ts.isFunctionExpression(e);
}

module.exports = { deprecatedKeys };
