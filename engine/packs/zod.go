package packs

import (
	"slices"
	"strings"

	"github.com/uptide/uptide/engine/model"
)

// zodPack: zod 3 → 4, after zod's own migration guide.
func zodPack() *Pack {
	return &Pack{
		Package: "zod", From: ">=3.0.0 <4.0.0", To: ">=4.0.0 <5.0.0", Places: zodDefaultMessages,
		Rules: []Rule{
			{
				ID: "zod-error-params", Title: "required_error / invalid_type_error / errorMap become error", On: Code(2353), Token: "required_error|invalid_type_error|errorMap",
				Guide: "zod 4 replaces required_error, invalid_type_error and errorMap with one error param: error: (iss) => iss.input === undefined ? 'required message' : 'type message'.",
				// zod 4.1+ has two overloads of z.string(params), so tsc says
				// no overload matches (TS2769) where 4.0 said TS2353.
				Also:      []Key{{On: Code(2769), Token: "required_error|invalid_type_error|errorMap"}},
				Transform: errorParams,
			},
			{
				// The key's path is the target's params type
				// ($ZodCheckParams#message, $ZodTypeParams#message): check
				// judges deprecated keys in the overlay.
				ID: "zod-message-param", Title: "message param becomes error", On: Kind(model.ChangeDeprecated), Path: "*#message",
				Guide:     "zod 4 deprecates the message param in favour of error, which takes the same string.",
				Transform: paramKey("message", "error", "error", "errorMap", "required_error", "invalid_type_error"),
			},
			{
				ID: "zod-string-formats", Title: "string formats are top-level", On: Kind(model.ChangeDeprecated), Path: "ZodString#*",
				Guide:     "zod 4 moves string formats to the top level: z.string().email() → z.email(), likewise url, uuid, ipv4/ipv6 (ip is gone: choose one).",
				Transform: topLevelFormat,
			},
			{
				ID: "zod-record-key", Title: "z.record needs a key schema", On: Kind(model.ChangeRemoved), Path: "ZodRecord.create", Token: "record",
				// z.record is zod 3's ZodRecord.create, which zod 4 does not
				// have; a zod whose record survives with a new arity is a
				// TS2554 at the call.
				Also:      []Key{{On: Code(2554), Token: "record"}},
				Guide:     "zod 4's z.record takes a key schema first: z.record(v) → z.record(z.string(), v).",
				Transform: recordKey,
			},
			{
				ID: "zod-strict-passthrough", Title: "strict / passthrough become strictObject / looseObject", On: Kind(model.ChangeDeprecated), Path: "ZodObject#strict",
				Guide:     "zod 4: z.object(shape).strict() → z.strictObject(shape), .passthrough() → z.looseObject(shape).",
				Transform: objectFactory("strict", "strictObject"),
			},
			{
				ID: "zod-passthrough", Title: "strict / passthrough become strictObject / looseObject", On: Kind(model.ChangeDeprecated), Path: "ZodObject#passthrough",
				Guide:     "zod 4: z.object(shape).passthrough() → z.looseObject(shape).",
				Transform: objectFactory("passthrough", "looseObject"),
			},
			{
				ID: "zod-error-issues", Title: "ZodError#errors is ZodError#issues", On: Kind(model.ChangeRemoved), Path: "ZodError#errors",
				Guide:     "zod 4 removed ZodError#errors; #issues holds the same list.",
				Transform: rename("errors", "issues"),
			},
			{
				ID: "zod-native-enum", Title: "z.nativeEnum is z.enum", On: Kind(model.ChangeDeprecated), Path: "nativeEnum",
				Guide:     "zod 4's z.enum accepts TypeScript enums; z.nativeEnum is deprecated.",
				Transform: rename("nativeEnum", "enum"),
			},
			{
				ID: "zod-deep-partial", Title: "deepPartial removed", On: Kind(model.ChangeRemoved), Path: "ZodObject#deepPartial",
				Guide: "zod 4 removed .deepPartial(): write the partial schema explicitly (nested .partial()).",
				Notes: []string{"deepPartial has no one-line replacement: each nested object needs its own .partial()."},
			},
			{
				ID: "zod-flatten", Title: "flatten / formErrors deprecated", On: Kind(model.ChangeDeprecated), Path: "ZodError#flatten",
				Guide: "zod 4 deprecates error.flatten() and formErrors for z.flattenError(error) / z.treeifyError(error).",
			},
			{
				ID: "zod-types", Title: "ZodEffects / ZodTypeAny types", On: Kind(model.ChangeRemoved), Path: "ZodEffects", PerFile: true,
				Guide: "zod 4 removed ZodEffects (refinements live on the schema, transforms are ZodPipe) and ZodTypeAny is ZodType.",
			},
			{
				ID: "zod-superrefine-ctx", Title: "superRefine ctx.path removed", On: Kind(model.ChangeRemoved), Path: "RefinementCtx#path",
				Guide: "zod 4's superRefine ctx has no path; addIssue takes its path relative to the schema.",
			},
		},
	}
}

// renameKey renames an object-literal key at the site (key followed by a
// colon).
func renameKey(old, repl string) Transform {
	return func(s Site) ([]Edit, bool) {
		at, ok := tokenAt(s, old)
		if !ok {
			return nil, false
		}
		rest := strings.TrimLeft(s.Content[at+len(old):], " \t")
		if !strings.HasPrefix(rest, ":") {
			return nil, false
		}
		return []Edit{{File: s.Finding.File, Start: at, End: at + len(old), New: repl}}, true
	}
}

// paramKey renames the key old of a params object literal to repl,
// keeping its value ({ message: 'x' } → { error: 'x' }, the shorthand
// { message } → { error: message }, a quoted key keeps its quotes). The
// parser says the site is the key of an object literal's own member;
// an object that also has one of the conflicting keys (two sources of
// one message) or a spread (which may bring one) is left to the assisted
// fixer, as is a method or a computed key.
func paramKey(old, repl string, conflicts ...string) Transform {
	return func(s Site) ([]Edit, bool) {
		if s.Syntax == nil {
			return nil, false
		}
		at, ok := tokenAt(s, old)
		if !ok {
			return nil, false
		}
		chain, err := s.Syntax(s.Finding.File, s.Content, at)
		if err != nil || len(chain) < 3 {
			return nil, false
		}
		key, member, obj := chain[0], chain[1], chain[2]
		quoted := key.Kind == "StringLiteral" && key.Start == at-1 && key.End == at+len(old)+1
		if !(key.Kind == "Identifier" && key.Start == at && key.End == at+len(old)) && !quoted {
			return nil, false
		}
		if member.Start != key.Start || obj.Kind != "ObjectLiteralExpression" {
			return nil, false
		}
		edit := Edit{File: s.Finding.File, Start: at, End: at + len(old), New: repl}
		switch member.Kind {
		case "PropertyAssignment":
		case "ShorthandPropertyAssignment":
			if quoted || member.End != key.End {
				return nil, false // a default (= x) is a pattern, not a value
			}
			edit.New = repl + ": " + old
		default:
			return nil, false
		}
		if hasMember(s, obj, conflicts) {
			return nil, false
		}
		return []Edit{edit}, true
	}
}

// hasMember: the object literal obj has a spread, or an own member named
// one of names (bare or quoted), as the parser sees it.
func hasMember(s Site, obj Node, names []string) bool {
	text := s.Content[obj.Start:obj.End]
	own := func(offset int, kinds ...string) bool {
		chain, err := s.Syntax(s.Finding.File, s.Content, offset)
		if err != nil {
			return true // unsure: as if it had one
		}
		for i, n := range chain {
			if n == obj {
				return i >= 1 && n.Kind == "ObjectLiteralExpression" && slices.Contains(kinds, chain[i-1].Kind) && chain[i-1].Start == chain[0].Start
			}
		}
		return false
	}
	for i := strings.Index(text, "..."); i >= 0; {
		if own(obj.Start+i, "SpreadAssignment") {
			return true
		}
		j := strings.Index(text[i+3:], "...")
		if j < 0 {
			break
		}
		i += 3 + j
	}
	for _, name := range names {
		for i := 0; i < len(text); {
			j := strings.Index(text[i:], name)
			if j < 0 {
				break
			}
			at := obj.Start + i + j
			i += j + len(name)
			if at > 0 && isIdent(s.Content[at-1]) || at+len(name) < len(s.Content) && isIdent(s.Content[at+len(name)]) {
				continue
			}
			if at > 0 && (s.Content[at-1] == '"' || s.Content[at-1] == '\'') {
				at--
			}
			if own(at, "PropertyAssignment", "ShorthandPropertyAssignment", "MethodDeclaration", "GetAccessor", "SetAccessor") {
				return true
			}
		}
	}
	return false
}

var zodFormats = map[string]string{"email": "email", "url": "url", "uuid": "uuid", "cuid": "cuid", "cuid2": "cuid2", "ulid": "ulid", "base64": "base64", "nanoid": "nanoid"}

// topLevelFormat: z.string().email(args) → z.email(args), only on a direct
// z.string() receiver; later chain operations and arguments survive.
func topLevelFormat(s Site) ([]Edit, bool) {
	name := strings.TrimPrefix(s.Finding.Path, "ZodString#")
	top, ok := zodFormats[name]
	if !ok {
		return nil, false
	}
	at, ok := tokenAt(s, name)
	if !ok || !strings.HasPrefix(s.Content[at+len(name):], "(") {
		return nil, false
	}
	const recv = "z.string()."
	if at < len(recv) || s.Content[at-len(recv):at] != recv || (at > len(recv) && isIdent(s.Content[at-len(recv)-1])) {
		return nil, false
	}
	return []Edit{{File: s.Finding.File, Start: at - len(recv), End: at + len(name), New: "z." + top}}, true
}

// recordKey: z.record(v) → z.record(z.string(), v). The compiler already
// said the call has too few arguments.
func recordKey(s Site) ([]Edit, bool) {
	at, ok := tokenAt(s, "record")
	if !ok || !strings.HasPrefix(s.Content[at+len("record"):], "(") {
		return nil, false
	}
	open := at + len("record") + 1
	if arg := strings.TrimSpace(s.Content[open:]); strings.HasPrefix(arg, ")") || strings.HasPrefix(arg, "z.string(),") {
		return nil, false
	}
	return []Edit{{File: s.Finding.File, Start: open, End: open, New: "z.string(), "}}, true
}

// errorParams: zod 3's required_error / invalid_type_error in a schema's
// params object become zod 4's one error callback, input-sensitive:
// { required_error: 'A', invalid_type_error: 'B' } →
// { error: (iss) => iss.input === undefined ? 'A' : 'B' }. Only a flat
// object literal whose values are string literals is taken (other entries
// keep their text); errorMap, message beside them, spreads, computed keys
// and non-literal messages go to the assisted fixer.
func errorParams(s Site) ([]Edit, bool) {
	at := -1
	for _, tok := range []string{"required_error", "invalid_type_error"} {
		if a, ok := tokenAt(s, tok); ok {
			at = a
			break
		}
	}
	if at < 0 {
		return nil, false
	}
	open := strings.LastIndexByte(s.Content[:at], '{')
	if open < 0 {
		return nil, false
	}
	entries, ok := flatObject(s.Content, open)
	if !ok {
		return nil, false
	}
	var required, invalid string
	var errs []int
	for i, e := range entries {
		switch e.key {
		case "required_error":
			required = e.value
			errs = append(errs, i)
		case "invalid_type_error":
			invalid = e.value
			errs = append(errs, i)
		case "description":
		default: // errorMap, message: two sources of one message
			return nil, false
		}
	}
	if len(errs) == 0 || !containsEntry(entries, errs, at) {
		return nil, false
	}
	if required == "" {
		required = "undefined"
	}
	if invalid == "" {
		invalid = "undefined"
	}
	first := entries[errs[0]]
	edits := []Edit{{File: s.Finding.File, Start: first.keyStart, End: first.valueEnd,
		New: "error: (iss) => iss.input === undefined ? " + required + " : " + invalid}}
	for _, i := range errs[1:] {
		// ", invalid_type_error: 'B'": from the end of the entry before it.
		edits = append(edits, Edit{File: s.Finding.File, Start: entries[i-1].valueEnd, End: entries[i].valueEnd})
	}
	return edits, true
}

// objectEntry is one key: 'string literal' entry of a flat object literal.
type objectEntry struct {
	key                string
	keyStart, valueEnd int
	value              string // the literal as written, quotes included
}

// containsEntry: the site's token is the key of one of the entries.
func containsEntry(entries []objectEntry, idx []int, at int) bool {
	for _, i := range idx {
		if entries[i].keyStart == at {
			return true
		}
	}
	return false
}

// flatObject reads the object literal opening at content[open] whose
// entries are all identifier: 'string' or identifier: "string" (no
// escapes across lines, no comments, no nesting, no spreads); ok=false for
// anything else.
func flatObject(content string, open int) ([]objectEntry, bool) {
	i := open + 1
	skip := func() {
		for i < len(content) && strings.IndexByte(" \t\r\n", content[i]) >= 0 {
			i++
		}
	}
	var out []objectEntry
	for {
		skip()
		if i >= len(content) {
			return nil, false
		}
		if content[i] == '}' {
			return out, len(out) > 0
		}
		start := i
		for i < len(content) && isIdent(content[i]) {
			i++
		}
		if i == start {
			return nil, false
		}
		e := objectEntry{key: content[start:i], keyStart: start}
		skip()
		if i >= len(content) || content[i] != ':' {
			return nil, false
		}
		i++
		skip()
		if i >= len(content) || (content[i] != '\'' && content[i] != '"') {
			return nil, false
		}
		q := content[i]
		vs := i
		for i++; i < len(content) && content[i] != q; i++ {
			if content[i] == '\\' {
				i++
			} else if content[i] == '\n' {
				return nil, false
			}
		}
		if i >= len(content) {
			return nil, false
		}
		i++
		e.value, e.valueEnd = content[vs:i], i
		out = append(out, e)
		skip()
		switch {
		case i < len(content) && content[i] == ',':
			i++
		case i < len(content) && content[i] == '}':
		default:
			return nil, false
		}
	}
}

// objectFactory: z.object(shape).strict() → z.strictObject(shape) (and
// passthrough → looseObject), where the receiver is the z.object call
// itself. Where the call ends is syntax (a shape holds calls, strings,
// comments), so the parser says: the method call must be an argument-less
// call of a property of exactly the z.object(...) call expression, on the
// z the file imports from zod. Anything else (a schema variable, a
// message argument, an optional chain) is the assisted fixer's.
func objectFactory(method, factory string) Transform {
	return func(s Site) ([]Edit, bool) {
		if s.Syntax == nil || !importsZod(s.Content) {
			return nil, false
		}
		at, ok := tokenAt(s, method)
		if !ok {
			return nil, false
		}
		chain, err := s.Syntax(s.Finding.File, s.Content, at)
		if err != nil || len(chain) < 3 || chain[0].Kind != "Identifier" || chain[0].Start != at ||
			chain[1].Kind != "PropertyAccessExpression" || chain[2].Kind != "CallExpression" || chain[2].Start != chain[1].Start {
			return nil, false
		}
		access, call := chain[1], chain[2]
		if strings.TrimSpace(s.Content[access.End:call.End]) != "()" {
			return nil, false
		}
		// The receiver ends where the dot before the name begins; only
		// blanks may surround the dot.
		dot := strings.TrimRight(s.Content[access.Start:at], " \t\r\n")
		if !strings.HasSuffix(dot, ".") || strings.HasSuffix(dot, "?.") {
			return nil, false
		}
		recvEnd := access.Start + len(strings.TrimRight(strings.TrimSuffix(dot, "."), " \t\r\n"))
		const callee = "z.object"
		if !strings.HasPrefix(s.Content[access.Start:], callee+"(") {
			return nil, false
		}
		// The receiver is one call expression, z.object(...), from the z
		// to just before the dot.
		inner, err := s.Syntax(s.Finding.File, s.Content, access.Start+len("z."))
		if err != nil {
			return nil, false
		}
		isCall := false
		for i, n := range inner {
			if n.Kind == "CallExpression" && n.Start == access.Start && n.End == recvEnd && i > 0 &&
				inner[i-1].Kind == "PropertyAccessExpression" && inner[i-1].Start == access.Start && inner[i-1].End == access.Start+len(callee) {
				isCall = true
				break
			}
		}
		if !isCall {
			return nil, false
		}
		return []Edit{
			{File: s.Finding.File, Start: access.Start + len("z."), End: access.Start + len(callee), New: factory},
			{File: s.Finding.File, Start: recvEnd, End: call.End},
		}, true
	}
}

// importsZod: the file binds z to zod (import { z } from 'zod', or
// import * as z / import z from it).
func importsZod(content string) bool {
	for _, l := range strings.Split(content, "\n") {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "import ") || !(strings.Contains(t, `from "zod"`) || strings.Contains(t, "from 'zod'")) {
			continue
		}
		if strings.Contains(t, "* as z ") || strings.HasPrefix(t, "import z ") || strings.HasPrefix(t, "import z,") {
			return true
		}
		if i, j := strings.IndexByte(t, '{'), strings.IndexByte(t, '}'); i >= 0 && j > i {
			for _, spec := range strings.Split(t[i+1:j], ",") {
				if strings.TrimSpace(spec) == "z" {
					return true
				}
			}
		}
	}
	return false
}
