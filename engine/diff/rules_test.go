package diff

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// ruleCase exercises one classification row on two small surfaces.
type ruleCase struct {
	rule string
	name string
	a, b []model.Symbol
	// rel is the checker's answers; nil means text only.
	rel map[string]Relation
	// path is where the change is expected; default the first symbol's.
	path string
	// want describes the change the row produces; for rows that produce
	// nothing, the case asserts that no change exists at path.
	want want
}

type want struct {
	kind        model.ChangeKind
	severity    model.Severity
	confidence  float64
	role        string
	replacement string
	note        string // substring
}

const (
	fn     = model.KindFunction
	meth   = model.KindMethod
	prop   = model.KindProperty
	vari   = model.KindVariable
	iface  = model.KindInterface
	class  = model.KindClass
	talias = model.KindTypeAlias
	enum   = model.KindEnum
	emem   = model.KindEnumMember
	ctor   = model.KindConstructor
	idx    = model.KindIndexSignature
	ns     = model.KindNamespace
)

// ruleCases: every row of every table, at least once.
var ruleCases = []ruleCase{
	// Diff semantics.
	{rule: "removed", name: "function removed",
		a:    []model.Symbol{sym("parse", fn, "(input: string): Item")},
		want: want{kind: model.ChangeRemoved, severity: model.Breaking, confidence: 1}},
	{rule: "removed", name: "collision-scoped path whose collision disappeared",
		a:    []model.Symbol{from(sym(`"./server":Client`, class, "class"), "./server"), sym("Client", class, "class")},
		b:    []model.Symbol{sym("Client", class, "class"), from(sym("Server", class, "class"), "./server")},
		path: `"./server":Client`,
		want: want{kind: model.ChangeRemoved, severity: model.Breaking, confidence: 1}},
	{rule: "removed/was-deprecated", name: "deprecated then removed keeps the named replacement",
		a:    []model.Symbol{deprecated(sym("safeParseOld", fn, "(x: unknown): Result"), "use safeParse instead", "safeParse")},
		want: want{kind: model.ChangeRemoved, severity: model.Breaking, confidence: 1, note: "was deprecated", replacement: "safeParse"}},
	{rule: "added", name: "function added",
		b:    []model.Symbol{sym("parseAsync", fn, "(input: string): Promise<Item>")},
		want: want{kind: model.ChangeAdded, severity: model.Additive, confidence: 1}},
	{rule: "added", name: "a new collision scopes only the non-root one",
		a:    []model.Symbol{sym("uuid", fn, "(): Column")},
		b:    []model.Symbol{sym("uuid", fn, "(): Column"), from(sym(`"./gel-core":uuid`, fn, "(): GelColumn"), "./gel-core")},
		path: `"./gel-core":uuid`,
		want: want{kind: model.ChangeAdded, severity: model.Additive, confidence: 1}},
	{rule: "required", name: "optional property became required",
		a:    []model.Symbol{optional(sym("Options#timeout", prop, "number"))},
		b:    []model.Symbol{sym("Options#timeout", prop, "number")},
		want: want{kind: model.ChangeRequired, severity: model.Breaking, confidence: 1}},
	{rule: "optional", name: "required property became optional",
		a:    []model.Symbol{sym("Options#timeout", prop, "number")},
		b:    []model.Symbol{optional(sym("Options#timeout", prop, "number"))},
		want: want{kind: model.ChangeType, severity: model.Additive, confidence: 1}},
	{rule: "deprecated", name: "newly deprecated with a named replacement",
		a:    []model.Symbol{sym("Stripe#charges", prop, "readonly Charges")},
		b:    []model.Symbol{deprecated(sym("Stripe#charges", prop, "readonly Charges"), "Use paymentIntents instead.", "paymentIntents")},
		want: want{kind: model.ChangeDeprecated, severity: model.Deprecated, confidence: 1, replacement: "paymentIntents", note: "Use paymentIntents instead."}},
	{rule: "moved", name: "no shared entry point",
		a:    []model.Symbol{from(sym("z", vari, "const Zod"), "./v3")},
		b:    []model.Symbol{from(sym("z", vari, "const Zod"), "./v4", "./v4/core")},
		want: want{kind: model.ChangeMoved, severity: model.Breaking, confidence: 0.95, replacement: "./v4"}},
	{rule: "moved/still-reachable", name: "moved between subpaths, still exported from the root",
		a: []model.Symbol{from(sym("z", vari, "const Zod"), ".", "./v3")},
		b: []model.Symbol{from(sym("z", vari, "const Zod"), ".", "./v4")}},
	{rule: "moved/augmentation", name: "a global kept while the package adds an entry point",
		a: []model.Symbol{from(sym(`"global":AnimationEvent`, iface, "interface AnimationEvent"), ".", "./canary")},
		b: []model.Symbol{from(sym(`"global":AnimationEvent`, iface, "interface AnimationEvent"), ".", "./canary", "./compiler-runtime")}},
	{rule: "moved/augmentation", name: "an augmentation of another module kept while the package drops entry points",
		a: []model.Symbol{from(sym(`"express":Request#user`, prop, "user?: User"), ".", "./legacy")},
		b: []model.Symbol{from(sym(`"express":Request#user`, prop, "user?: User"), "./next")}},
	{rule: "checker/incompatible", name: "property type incompatible both ways",
		a:    []model.Symbol{sym("Options#mode", prop, "Mode")},
		b:    []model.Symbol{sym("Options#mode", prop, "ModeV2")},
		rel:  map[string]Relation{"Options#mode": rel(false, false)},
		want: want{kind: model.ChangeType, severity: model.Breaking, confidence: 1}},
	{rule: "checker/incompatible", name: "parameter incompatible",
		a:    []model.Symbol{sym("parse", fn, "(input: Source): Item")},
		b:    []model.Symbol{sym("parse", fn, "(input: SourceV2): Item")},
		rel:  map[string]Relation{"parse": sigRel(ptr(both), neither)},
		want: want{kind: model.ChangeType, severity: model.Breaking, confidence: 1}},
	{rule: "checker/equivalent", name: "renamed type the checker finds identical",
		a:   []model.Symbol{sym("Options#mode", prop, "Mode")},
		b:   []model.Symbol{sym("Options#mode", prop, "ModeName")},
		rel: map[string]Relation{"Options#mode": rel(true, true)}},
	{rule: "checker/equivalent", name: "callable parameter retyped to an equivalent alias",
		a:   []model.Symbol{sym("parse", fn, "(input: Input): Item")},
		b:   []model.Symbol{sym("parse", fn, "(input: RawInput): Item")},
		rel: map[string]Relation{"parse": sigRel(ptr(both), both)}},

	// Declaration kind changes.
	{rule: "decl-kind/interface-to-alias", name: "interface became an object type alias",
		a:    []model.Symbol{sym("Options", iface, "interface")},
		b:    []model.Symbol{sym("Options", talias, "type")},
		want: want{kind: model.ChangeSignature, severity: model.Additive, confidence: 0.7, note: "declaration merging"}},
	{rule: "decl-kind/alias-to-interface", name: "type alias became an interface",
		a:    []model.Symbol{sym("Options", talias, "type<T>")},
		b:    []model.Symbol{sym("Options", iface, "interface<T>")},
		want: want{kind: model.ChangeSignature, severity: model.Additive, confidence: 0.7}},
	{rule: "decl-kind/method-to-property", name: "method became a callable property",
		a:    []model.Symbol{sym("Client#send", meth, "(req: Request): Promise<Response>")},
		b:    []model.Symbol{sym("Client#send", prop, "(req: Request) => Promise<Response>")},
		want: want{kind: model.ChangeSignature, severity: model.Additive, confidence: 0.7, note: "this binding"}},
	{rule: "decl-kind/class-to-variable", name: "class became a value and type pair (zod 4)",
		a:    []model.Symbol{sym("ZodString", class, "class extends ZodType<string>")},
		b:    []model.Symbol{sym("ZodString", vari, "const ZodStringConstructor")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 0.6}},
	{rule: "decl-kind/other", name: "class became a type alias",
		a:    []model.Symbol{sym("Client", class, "class")},
		b:    []model.Symbol{sym("Client", talias, "type = ClientImpl")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},
	{rule: "decl-kind/other", name: "method became a non-callable property",
		a:    []model.Symbol{sym("Client#config", meth, "(): Config")},
		b:    []model.Symbol{sym("Client#config", prop, "Config")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},

	// Container headers.
	{rule: "header/extends-grew", name: "interface gained a base",
		a:    []model.Symbol{sym("Event", iface, "interface extends EventBase")},
		b:    []model.Symbol{sym("Event", iface, "interface extends EventBase, Timestamped")},
		want: want{kind: model.ChangeSignature, severity: model.Additive, confidence: 0.8}},
	{rule: "header/extends-grew", name: "class gained an implements clause",
		a:    []model.Symbol{sym("Client", class, "class extends Base")},
		b:    []model.Symbol{sym("Client", class, "class extends Base implements Disposable")},
		want: want{kind: model.ChangeSignature, severity: model.Additive, confidence: 0.8}},
	{rule: "header/extends-lost", name: "interface lost a base",
		a:    []model.Symbol{sym("Event", iface, "interface extends EventBase, Timestamped")},
		b:    []model.Symbol{sym("Event", iface, "interface extends EventBase")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},
	{rule: "header/extends-lost", name: "base swapped",
		a:    []model.Symbol{sym("ZodString", class, "class extends ZodType<string, ZodStringDef>")},
		b:    []model.Symbol{sym("ZodString", class, "class extends ZodType<string, ZodStringDef, string>")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},
	{rule: "header/became-abstract", name: "class became abstract",
		a:    []model.Symbol{sym("Store", class, "class<T>")},
		b:    []model.Symbol{sym("Store", class, "abstract class<T>")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},
	{rule: "header/stopped-abstract", name: "class no longer abstract",
		a:    []model.Symbol{sym("Store", class, "abstract class<T>")},
		b:    []model.Symbol{sym("Store", class, "class<T>")},
		want: want{kind: model.ChangeSignature, severity: model.Additive, confidence: 1}},

	// Signature parsing without the checker.
	{rule: "type-params/trailing-default", name: "class gained a defaulted type parameter",
		a:    []model.Symbol{sym("Store", class, "class<T>")},
		b:    []model.Symbol{sym("Store", class, "class<T, K extends string = string>")},
		want: want{kind: model.ChangeSignature, severity: model.Additive, confidence: 1}},
	{rule: "type-params/trailing-default", name: "function gained a defaulted type parameter",
		a:    []model.Symbol{sym("create", fn, "<T>(x: T): Store<T>")},
		b:    []model.Symbol{sym("create", fn, "<T, M = {}>(x: T): Store<T>")},
		want: want{kind: model.ChangeSignature, severity: model.Additive, confidence: 1}},
	{rule: "type-params/changed", name: "type parameter without a default added",
		a:    []model.Symbol{sym("Store", iface, "interface<T>")},
		b:    []model.Symbol{sym("Store", iface, "interface<T, K>")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},
	{rule: "type-params/changed", name: "variance annotation added",
		a:    []model.Symbol{sym("Box", iface, "interface<T>")},
		b:    []model.Symbol{sym("Box", iface, "interface<out T>")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},
	{rule: "type-params/changed", name: "const type parameter added",
		a:    []model.Symbol{sym("tuple", fn, "<T extends readonly unknown[]>(...items: T): T")},
		b:    []model.Symbol{sym("tuple", fn, "<const T extends readonly unknown[]>(...items: T): T")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},
	{rule: "sig/param/widened", name: "parameter union widened",
		a:    []model.Symbol{sym("parse", fn, "(input: string): Item")},
		b:    []model.Symbol{sym("parse", fn, "(input: Buffer | string): Item")},
		want: want{kind: model.ChangeWidened, severity: model.Additive, confidence: 0.8, role: RoleParameter}},
	{rule: "sig/param/widened", name: "parameter became unknown",
		a:    []model.Symbol{sym("parse", fn, "(input: string): Item")},
		b:    []model.Symbol{sym("parse", fn, "(input: unknown): Item")},
		want: want{kind: model.ChangeWidened, severity: model.Additive, confidence: 0.8, role: RoleParameter}},
	{rule: "sig/param/narrowed", name: "parameter union narrowed",
		a:    []model.Symbol{sym("parse", fn, "(input: Buffer | string): Item")},
		b:    []model.Symbol{sym("parse", fn, "(input: string): Item")},
		want: want{kind: model.ChangeNarrowed, severity: model.Breaking, confidence: 1, role: RoleParameter}},
	{rule: "sig/param/changed", name: "parameter type replaced",
		a:    []model.Symbol{sym("parse", fn, "(input: string): Item")},
		b:    []model.Symbol{sym("parse", fn, "(input: Source): Item")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},
	{rule: "sig/param/changed", name: "parameter became a rest parameter",
		a:    []model.Symbol{sym("merge", fn, "(items: Item[]): Item")},
		b:    []model.Symbol{sym("merge", fn, "(...items: Item[]): Item")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},
	{rule: "sig/param/inline-to-named", name: "inline object parameter became a named type",
		a:    []model.Symbol{sym("create", fn, "(opts: {…}): Client")},
		b:    []model.Symbol{sym("create", fn, "(opts: ClientOptions): Client")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 0.5}},
	{rule: "sig/param/inline-to-named", name: "parameter's object literal written out became a named type",
		a:    []model.Symbol{sym("Factory#()", model.KindCallSignature, "(opts: { retries?: number; }): Client")},
		b:    []model.Symbol{sym("Factory#()", model.KindCallSignature, "(opts: ClientOptions): Client")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 0.5}},
	{rule: "sig/param/changed", name: "array of object literals became a named type: not one inline object",
		a:    []model.Symbol{sym("create", fn, "(opts: { retries?: number; }[]): Client")},
		b:    []model.Symbol{sym("create", fn, "(opts: ClientOptions): Client")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},
	{rule: "sig/param/added-optional", name: "new optional parameter",
		a:    []model.Symbol{sym("parse", fn, "(input: string): Item")},
		b:    []model.Symbol{sym("parse", fn, "(input: string, opts?: ParseOptions): Item")},
		want: want{kind: model.ChangeSignature, severity: model.Additive, confidence: 1}},
	{rule: "sig/param/added-rest", name: "new rest parameter",
		a:    []model.Symbol{sym("log", fn, "(msg: string): void")},
		b:    []model.Symbol{sym("log", fn, "(msg: string, ...args: unknown[]): void")},
		want: want{kind: model.ChangeSignature, severity: model.Additive, confidence: 1}},
	{rule: "sig/param/made-optional", name: "parameter made optional",
		a:    []model.Symbol{sym("Client.new()", ctor, "(key: string, config: Config)")},
		b:    []model.Symbol{sym("Client.new()", ctor, "(key: string, config?: Config)")},
		want: want{kind: model.ChangeSignature, severity: model.Additive, confidence: 1}},
	{rule: "sig/param/removed", name: "trailing parameter removed",
		a:    []model.Symbol{sym("parse", fn, "(input: string, strict?: boolean): Item")},
		b:    []model.Symbol{sym("parse", fn, "(input: string): Item")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},
	{rule: "sig/param/added-required", name: "new required parameter",
		a:    []model.Symbol{sym("useRef", fn, "<T>(): MutableRefObject<T | undefined>")},
		b:    []model.Symbol{sym("useRef", fn, "<T>(initialValue: T): RefObject<T>")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},
	{rule: "sig/param/made-required", name: "parameter made required",
		a:    []model.Symbol{sym("Client.new()", ctor, "(key: string, config?: Config)")},
		b:    []model.Symbol{sym("Client.new()", ctor, "(key: string, config: Config)")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},
	{rule: "sig/return/narrowed", name: "return union narrowed",
		a:    []model.Symbol{sym("find", fn, "(id: string): Item | null | undefined")},
		b:    []model.Symbol{sym("find", fn, "(id: string): Item | null")},
		want: want{kind: model.ChangeNarrowed, severity: model.Additive, confidence: 1, role: RoleReturn}},
	{rule: "sig/return/widened", name: "return union widened",
		a: []model.Symbol{sym("find", fn, "(id: string): Item")},
		b: []model.Symbol{sym("find", fn, "(id: string): Item | undefined")},
		want: want{kind: model.ChangeWidened, severity: model.Additive, confidence: 0.6, role: RoleReturn,
			note: "type widened; breaking if the member is read by the consumer"}},
	{rule: "sig/return/changed", name: "return type replaced",
		a:    []model.Symbol{sym("find", fn, "(id: string): Item")},
		b:    []model.Symbol{sym("find", fn, "(id: string): Promise<Item>")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},
	{rule: "sig/overloads/survived", name: "overload added, old ones verbatim",
		a:    []model.Symbol{sym("parse", fn, "(input: string): Item; (input: Buffer): Item")},
		b:    []model.Symbol{sym("parse", fn, "(input: string): Item; (input: Buffer): Item; (input: URL): Promise<Item>")},
		want: want{kind: model.ChangeSignature, severity: model.Additive, confidence: 1}},
	{rule: "sig/param/widened", name: "one overload changed is compared as a single signature",
		a:    []model.Symbol{sym("parse", fn, "(input: string): Item; (input: Buffer): Item")},
		b:    []model.Symbol{sym("parse", fn, "(input: string): Item; (input: Buffer | Uint8Array): Item")},
		want: want{kind: model.ChangeWidened, severity: model.Additive, confidence: 0.8, role: RoleParameter}},
	{rule: "sig/overloads/changed", name: "two overloads changed",
		a:    []model.Symbol{sym("parse", fn, "(input: string): Item; (input: Buffer): Item")},
		b:    []model.Symbol{sym("parse", fn, "(input: string, strict: boolean): Item; (input: Buffer, strict: boolean): Item")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},
	{rule: "sig/overloads/changed", name: "an overload disappeared",
		a:    []model.Symbol{sym("parse", fn, "(input: string): Item; (input: Buffer): Item")},
		b:    []model.Symbol{sym("parse", fn, "(input: string): Item")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},
	{rule: "sig/modifier/loosened", name: "protected method became public",
		a:    []model.Symbol{sym("Base#init", meth, "protected (): void")},
		b:    []model.Symbol{sym("Base#init", meth, "(): void")},
		want: want{kind: model.ChangeSignature, severity: model.Additive, confidence: 1}},
	{rule: "sig/modifier/loosened", name: "const enum became a regular enum",
		a:    []model.Symbol{sym("Color", enum, "const enum")},
		b:    []model.Symbol{sym("Color", enum, "enum")},
		want: want{kind: model.ChangeSignature, severity: model.Additive, confidence: 1}},
	{rule: "sig/modifier/tightened", name: "property became readonly",
		a:    []model.Symbol{sym("Client#baseUrl", prop, "string")},
		b:    []model.Symbol{sym("Client#baseUrl", prop, "readonly string")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},
	{rule: "sig/modifier/tightened", name: "let became const",
		a:    []model.Symbol{sym("config", vari, "let Config")},
		b:    []model.Symbol{sym("config", vari, "const Config")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},
	{rule: "sig/unparsed", name: "unbalanced signature",
		a:    []model.Symbol{sym("parse", fn, "(input: string): Item")},
		b:    []model.Symbol{sym("parse", fn, "(input: Array<string): Item")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},
	{rule: "sig/unparsed", name: "header that is not a header",
		a:    []model.Symbol{sym("Client", class, "class")},
		b:    []model.Symbol{sym("Client", class, "klass")},
		want: want{kind: model.ChangeSignature, severity: model.Breaking, confidence: 1}},
	{rule: "type/widened", name: "mutable property union widened",
		a:    []model.Symbol{sym("Options#mode", prop, "'a' | 'b'")},
		b:    []model.Symbol{sym("Options#mode", prop, "'a' | 'b' | 'c'")},
		want: want{kind: model.ChangeWidened, severity: model.Additive, confidence: 0.6, role: RoleUnknown, note: "breaking if the member is read"}},
	{rule: "type/widened", name: "any after anything is widened",
		a:    []model.Symbol{sym("Options#meta", prop, "Record<string, string>")},
		b:    []model.Symbol{sym("Options#meta", prop, "any")},
		want: want{kind: model.ChangeWidened, severity: model.Additive, confidence: 0.6, role: RoleUnknown}},
	{rule: "type/widened", name: "readonly property widened has the output role",
		a:    []model.Symbol{sym("Response#status", prop, "readonly 200 | 404")},
		b:    []model.Symbol{sym("Response#status", prop, "readonly 200 | 404 | 500")},
		want: want{kind: model.ChangeWidened, severity: model.Additive, confidence: 0.6, role: RoleOutput}},
	{rule: "type/widened", name: "type alias union widened",
		a:    []model.Symbol{sym("Mode", talias, "type = 'a' | 'b'")},
		b:    []model.Symbol{sym("Mode", talias, "type = 'a' | 'b' | 'c'")},
		want: want{kind: model.ChangeWidened, severity: model.Additive, confidence: 0.6, role: RoleUnknown}},
	{rule: "type/narrowed", name: "property union narrowed",
		a:    []model.Symbol{sym("Options#mode", prop, "'a' | 'b' | 'c'")},
		b:    []model.Symbol{sym("Options#mode", prop, "'a' | 'b'")},
		want: want{kind: model.ChangeNarrowed, severity: model.Breaking, confidence: 1, role: RoleUnknown}},
	{rule: "type/narrowed", name: "index signature value narrowed",
		a:    []model.Symbol{sym("Headers#[string]", idx, "string | string[] | undefined")},
		b:    []model.Symbol{sym("Headers#[string]", idx, "string | undefined")},
		want: want{kind: model.ChangeNarrowed, severity: model.Breaking, confidence: 1, role: RoleUnknown}},
	{rule: "type/changed", name: "variable type replaced",
		a:    []model.Symbol{sym("version", vari, "const string")},
		b:    []model.Symbol{sym("version", vari, "const `${number}.${number}`")},
		want: want{kind: model.ChangeType, severity: model.Breaking, confidence: 1}},
	{rule: "type/changed", name: "enum member value changed",
		a:    []model.Symbol{sym("Color.Red", emem, "0")},
		b:    []model.Symbol{sym("Color.Red", emem, `"red"`)},
		want: want{kind: model.ChangeType, severity: model.Breaking, confidence: 1}},
	{rule: "type/changed", name: "function-typed property without the checker",
		a:    []model.Symbol{sym("Options#onError", prop, "(err: Error) => void")},
		b:    []model.Symbol{sym("Options#onError", prop, "(err: Error | string) => void")},
		want: want{kind: model.ChangeType, severity: model.Breaking, confidence: 1}},

	// Direction of a type change, with the checker.
	{rule: "direction/parameter/widened", name: "parameter widened",
		a:    []model.Symbol{sym("parse", fn, "(input: string): Item")},
		b:    []model.Symbol{sym("parse", fn, "(input: Input): Item")},
		rel:  map[string]Relation{"parse": sigRel(ptr(both), aToB)},
		want: want{kind: model.ChangeWidened, severity: model.Additive, confidence: 0.8, role: RoleParameter}},
	{rule: "direction/parameter/narrowed", name: "parameter narrowed",
		a:    []model.Symbol{sym("parse", fn, "(input: Input): Item")},
		b:    []model.Symbol{sym("parse", fn, "(input: string): Item")},
		rel:  map[string]Relation{"parse": sigRel(ptr(both), bToA)},
		want: want{kind: model.ChangeNarrowed, severity: model.Breaking, confidence: 1, role: RoleParameter}},
	{rule: "direction/return/widened", name: "return widened",
		a:    []model.Symbol{sym("find", fn, "(id: string): Item")},
		b:    []model.Symbol{sym("find", fn, "(id: string): Item | undefined")},
		rel:  map[string]Relation{"find": sigRel(ptr(aToB), both)},
		want: want{kind: model.ChangeWidened, severity: model.Breaking, confidence: 1, role: RoleReturn}},
	{rule: "direction/return/narrowed", name: "return narrowed",
		a:    []model.Symbol{sym("find", fn, "(id: string): Item | undefined")},
		b:    []model.Symbol{sym("find", fn, "(id: string): Item")},
		rel:  map[string]Relation{"find": sigRel(ptr(bToA), both)},
		want: want{kind: model.ChangeNarrowed, severity: model.Additive, confidence: 1, role: RoleReturn}},
	{rule: "direction/callback-parameter/widened", name: "callback receives a wider argument",
		a:    []model.Symbol{sym("Options#onError", prop, "(err: Error) => void")},
		b:    []model.Symbol{sym("Options#onError", prop, "(err: Error | string) => void")},
		rel:  map[string]Relation{"Options#onError": sigRel(ptr(both), aToB)},
		want: want{kind: model.ChangeWidened, severity: model.Breaking, confidence: 1, role: RoleCallbackParameter}},
	{rule: "direction/callback-parameter/narrowed", name: "callback receives a narrower argument",
		a:    []model.Symbol{sym("Options#onError", prop, "(err: Error | string) => void")},
		b:    []model.Symbol{sym("Options#onError", prop, "(err: Error) => void")},
		rel:  map[string]Relation{"Options#onError": sigRel(ptr(both), bToA)},
		want: want{kind: model.ChangeNarrowed, severity: model.Additive, confidence: 0.6, role: RoleCallbackParameter}},
	{rule: "direction/callback-return/widened", name: "callback may return more",
		a:    []model.Symbol{sym("Options#transform", prop, "(v: string) => string")},
		b:    []model.Symbol{sym("Options#transform", prop, "(v: string) => string | undefined")},
		rel:  map[string]Relation{"Options#transform": sigRel(ptr(aToB), both)},
		want: want{kind: model.ChangeWidened, severity: model.Additive, confidence: 1, role: RoleCallbackReturn}},
	{rule: "direction/callback-return/narrowed", name: "callback must return less",
		a:    []model.Symbol{sym("Options#transform", prop, "(v: string) => string | undefined")},
		b:    []model.Symbol{sym("Options#transform", prop, "(v: string) => string")},
		rel:  map[string]Relation{"Options#transform": sigRel(ptr(bToA), both)},
		want: want{kind: model.ChangeNarrowed, severity: model.Breaking, confidence: 1, role: RoleCallbackReturn}},
	{rule: "direction/output/widened", name: "readonly property widened",
		a:    []model.Symbol{sym("Response#status", prop, "readonly Status")},
		b:    []model.Symbol{sym("Response#status", prop, "readonly StatusV2")},
		rel:  map[string]Relation{"Response#status": rel(true, false)},
		want: want{kind: model.ChangeWidened, severity: model.Breaking, confidence: 1, role: RoleOutput}},
	{rule: "direction/output/widened", name: "variable widened",
		a:    []model.Symbol{sym("VERSION", vari, "const \"1.0\"")},
		b:    []model.Symbol{sym("VERSION", vari, "const string")},
		rel:  map[string]Relation{"VERSION": rel(true, false)},
		want: want{kind: model.ChangeWidened, severity: model.Breaking, confidence: 1, role: RoleOutput}},
	{rule: "direction/output/narrowed", name: "enum member narrowed",
		a:    []model.Symbol{sym("Level.Max", emem, "number")},
		b:    []model.Symbol{sym("Level.Max", emem, "3")},
		rel:  map[string]Relation{"Level.Max": rel(false, true)},
		want: want{kind: model.ChangeNarrowed, severity: model.Additive, confidence: 1, role: RoleOutput}},
	{rule: "direction/unknown/widened", name: "mutable property widened",
		a:    []model.Symbol{sym("Options#retries", prop, "Retries")},
		b:    []model.Symbol{sym("Options#retries", prop, "RetryPolicy")},
		rel:  map[string]Relation{"Options#retries": rel(true, false)},
		want: want{kind: model.ChangeWidened, severity: model.Additive, confidence: 0.6, role: RoleUnknown, note: "breaking if read"}},
	{rule: "direction/unknown/narrowed", name: "type alias narrowed",
		a:    []model.Symbol{sym("Mode", talias, "type = Modes")},
		b:    []model.Symbol{sym("Mode", talias, "type = StrictModes")},
		rel:  map[string]Relation{"Mode": rel(false, true)},
		want: want{kind: model.ChangeNarrowed, severity: model.Breaking, confidence: 0.7, role: RoleUnknown}},
	{rule: "direction/callable/compatible", name: "generic overloads compared as whole function types",
		a:    []model.Symbol{sym("parse", fn, "<T>(input: T): Item")},
		b:    []model.Symbol{sym("parse", fn, "<T>(input: T): Item; <T>(input: T, opts: Options): Item")},
		rel:  map[string]Relation{"parse": rel(false, true)},
		want: want{kind: model.ChangeSignature, severity: model.Additive, confidence: 1}},
}

func TestRuleCases(t *testing.T) {
	for _, tc := range ruleCases {
		t.Run(tc.rule+"/"+tc.name, func(t *testing.T) {
			r, ok := RuleByID(tc.rule)
			if !ok {
				t.Fatalf("case names unknown rule %q", tc.rule)
			}
			p := tc.path
			if p == "" {
				if len(tc.a) > 0 {
					p = tc.a[0].Path
				} else {
					p = tc.b[0].Path
				}
			}
			got := changesAt(Diff(surface("1.0.0", tc.a...), surface("2.0.0", tc.b...), tc.rel), p)
			if r.Kind == "" {
				if len(got) != 0 {
					t.Fatalf("row %q produces no change, got %+v", tc.rule, got)
				}
				return
			}
			var c *model.Change
			for i := range got {
				if got[i].Rule == tc.rule {
					c = &got[i]
				}
			}
			if c == nil {
				t.Fatalf("no change by rule %q at %s; got %+v", tc.rule, p, got)
			}
			w := tc.want
			if c.Kind != w.kind || c.Severity != w.severity || math.Abs(c.Confidence-w.confidence) > 1e-9 || c.Role != w.role {
				t.Errorf("change = %s/%s/%.2f role %q, want %s/%s/%.2f role %q (note %q)",
					c.Kind, c.Severity, c.Confidence, c.Role, w.kind, w.severity, w.confidence, w.role, c.Note)
			}
			if c.Replacement != w.replacement {
				t.Errorf("replacement = %q, want %q", c.Replacement, w.replacement)
			}
			if !strings.Contains(c.Note, w.note) {
				t.Errorf("note = %q, want it to contain %q", c.Note, w.note)
			}
		})
	}
}

// TestRuleRegistry keeps rules and tests in step: every row has a case,
// and every case names a row that exists.
func TestRuleRegistry(t *testing.T) {
	covered := map[string]int{}
	for _, tc := range ruleCases {
		if _, ok := RuleByID(tc.rule); !ok {
			t.Errorf("case %q names unknown rule %q", tc.name, tc.rule)
		}
		covered[tc.rule]++
	}
	for _, r := range Rules() {
		if covered[r.ID] == 0 {
			t.Errorf("rule %q (%s: %s) has no test case", r.ID, r.Table, r.Title)
		}
		if r.Title == "" || r.Table == "" {
			t.Errorf("rule %q needs a title and a table", r.ID)
		}
		if r.Kind != "" && (r.Confidence <= 0 || r.Confidence > 1 || r.Severity == "") {
			t.Errorf("rule %q: severity %q confidence %v", r.ID, r.Severity, r.Confidence)
		}
	}
}

func TestRuleByIDUnknown(t *testing.T) {
	if _, ok := RuleByID("renamed"); ok {
		t.Fatal("there is no renamed rule: a rename is only a hint")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("rule() accepted an unknown id")
		}
	}()
	_ = rule(fmt.Sprint("no-such-rule"))
}
