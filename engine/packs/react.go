package packs

import (
	"strings"

	"github.com/uptide/uptide/engine/model"
)

// reactPack: @types/react 18 → 19 (the types carry the breaking changes;
// react itself is a companion moved with them).
func reactPack() *Pack {
	return &Pack{
		Package: "@types/react", From: ">=18.0.0 <19.0.0", To: ">=19.0.0 <20.0.0",
		Rules: []Rule{
			{
				ID: "react-useref-argument", Title: "useRef needs an argument", On: Kind(model.ChangeRemoved), Path: "React.MutableRefObject", Token: "useRef",
				// The argument-less overload's return type is gone with it;
				// where MutableRefObject survives (deprecated), the call is
				// an unattributed TS2554 at useRef.
				Also:      []Key{{On: Code(2554), Token: "useRef"}, {On: Kind(model.ChangeSignature), Path: "React.useRef", Token: "useRef"}},
				Guide:     "In @types/react 19 useRef requires its initial value: useRef<T>() becomes useRef<T | undefined>(undefined) (the same type as 18's), useRef<T>(null) reads better for a DOM ref. The returned RefObject's current may be null.",
				Notes:     []string{"useRef(undefined) keeps the 18 behaviour; a DOM ref you pass to an element reads better as useRef<HTMLElement>(null). RefObject<T>#current is now T | null: code that assumed non-null needs a check."},
				Transform: useRefArgument,
			},
			{
				ID: "react-global-jsx", Title: "global JSX namespace removed", On: Code(2503), Token: "JSX",
				Guide:     "@types/react 19 no longer declares the global JSX namespace: write React.JSX.Element (import React) or import type { JSX } from 'react'.",
				Transform: globalJSX,
			},
			{
				ID: "react-jsx-config", Title: "jsx without jsxImportSource reads the removed global JSX", On: Cause, Token: "jsx",
				Guide:     "With \"jsx\": \"preserve\" and no jsxImportSource, TypeScript reads JSX element types from the namespace of the JSX factory (React.JSX for the default React.createElement) and, when that has none (a jsxFactory naming a plain function, a reactNamespace), from the global JSX namespace, which @types/react 19 no longer declares: \"jsxImportSource\": \"react\" makes it read react/jsx-runtime's. One edit at the tsconfig fixes every element.",
				Notes:     []string{"\"jsxImportSource\": \"react\" changes only type-checking under \"jsx\": \"preserve\" (your bundler still compiles the JSX); a workspace using another JSX runtime (preact, emotion) names that one instead."},
				Transform: jsxImportSource,
			},
			{
				ID: "react-reactchild", Title: "ReactChild removed", On: Kind(model.ChangeRemoved), Path: "React.ReactChild",
				Guide:     "ReactChild was removed in @types/react 19: use React.ReactElement | number | string, or ReactNode where any renderable child is fine.",
				Notes:     []string{"ReactChild never included null, undefined or booleans; ReactNode does. Choose ReactNode only where the wider type is intended."},
				Transform: replaceTypeOutsideImport("ReactChild", "React.ReactElement | number | string"),
			},
			{
				ID: "react-reacttext", Title: "ReactText removed", On: Kind(model.ChangeRemoved), Path: "React.ReactText",
				Guide:     "ReactText was removed in @types/react 19: it was string | number.",
				Transform: replaceTypeOutsideImport("ReactText", "string | number"),
			},
			{
				ID: "react-vfc", Title: "VFC removed", On: Kind(model.ChangeRemoved), Path: "React.VFC",
				Guide:     "VFC was removed in @types/react 19: FC no longer adds children, so FC is the same type.",
				Transform: renameType("VFC", "FC"),
			},
			{
				ID: "react-reactfragment", Title: "ReactFragment removed", On: Kind(model.ChangeRemoved), Path: "React.ReactFragment",
				Guide:     "ReactFragment was removed in @types/react 19: use Iterable<ReactNode>.",
				Transform: replaceTypeOutsideImport("ReactFragment", "Iterable<React.ReactNode>"),
			},
			{
				ID: "react-elementref", Title: "ElementRef deprecated for ComponentRef", On: Kind(model.ChangeDeprecated), Path: "React.ElementRef", Also: []Key{{On: Kind(model.ChangeRemoved), Path: "React.ElementRef"}},
				Guide:     "ElementRef is deprecated in @types/react 19: ComponentRef takes the same argument.",
				Transform: renameType("ElementRef", "ComponentRef"),
			},
			{
				// forwardRef compiles against 19 and its declaration need
				// not change: the rule is keyed by its uses, which check
				// notes for the plan whatever the diff says.
				ID: "react-forwardref", Title: "forwardRef no longer needed", On: Use, Path: "React.forwardRef",
				Also:  []Key{{On: Kind(model.ChangeDeprecated), Path: "React.forwardRef"}},
				Guide: "React 19 passes ref as a prop to function components; forwardRef still works.",
				Notes: []string{"forwardRef still works in 19; moving ref into props is a refactor to schedule, not part of this upgrade."},
			},
			{
				ID: "react-proptypes-defaultprops", Title: "propTypes and defaultProps on function components ignored", On: Kind(model.ChangeRemoved), Path: "React.FunctionComponent#defaultProps",
				Also:  []Key{{On: Kind(model.ChangeDeprecated), Path: "React.FunctionComponent#propTypes"}},
				Guide: "React 19 ignores propTypes and defaultProps on function components: use default parameter values and TypeScript types.",
				Notes: []string{"defaultProps on a function component silently stop applying at runtime in React 19: move each default into the destructured parameter; propTypes checks are gone."},
			},
		},
	}
}

// useRefArgument: useRef() → useRef(undefined), useRef<T>() →
// useRef<T | undefined>(undefined): 18's argument-less overload returned a
// mutable ref of T | undefined, which is what 19's useRef<T | undefined>
// returns; useRef<T>(undefined) would need 19's T | undefined overload.
// Only an empty argument list after a type argument list without
// parentheses is taken.
func useRefArgument(s Site) ([]Edit, bool) {
	at, ok := tokenAt(s, "useRef")
	if !ok {
		return nil, false
	}
	i := at + len("useRef")
	rest := s.Content[i:]
	if strings.HasPrefix(rest, "<") {
		depth := 0
		j := 0
		for ; j < len(rest); j++ {
			c := rest[j]
			if c == '<' {
				depth++
			} else if c == '>' {
				depth--
				if depth == 0 {
					break
				}
			} else if c == '(' || c == ')' || c == ';' || c == '\n' {
				return nil, false
			}
		}
		if depth != 0 || j == len(rest) {
			return nil, false
		}
		close := i + j
		i = close + 1
		if !strings.HasPrefix(s.Content[i:], "()") {
			return nil, false
		}
		return []Edit{
			{File: s.Finding.File, Start: close, End: close, New: " | undefined"},
			{File: s.Finding.File, Start: i + 1, End: i + 1, New: "undefined"},
		}, true
	}
	if !strings.HasPrefix(s.Content[i:], "()") {
		return nil, false
	}
	return []Edit{{File: s.Finding.File, Start: i + 1, End: i + 1, New: "undefined"}}, true
}

// globalJSX: JSX.X → React.JSX.X where React is in scope as a value.
func globalJSX(s Site) ([]Edit, bool) {
	at, ok := tokenAt(s, "JSX")
	if !ok || at+3 >= len(s.Content) || s.Content[at+3] != '.' || !importsReactNamespace(s.Content) {
		return nil, false
	}
	if at > 0 && s.Content[at-1] == '.' {
		return nil, false // already qualified
	}
	return []Edit{{File: s.Finding.File, Start: at, End: at, New: "React."}}, true
}

// replaceTypeOutsideImport replaces a removed type alias with its
// expansion at a type reference; the import specifier is left for the
// assisted fixer, since removing it means editing the list around it.
func replaceTypeOutsideImport(old, repl string) Transform {
	return func(s Site) ([]Edit, bool) {
		at, ok := tokenAt(s, old)
		if !ok || inImport(s.Content, at) {
			return nil, false
		}
		if strings.Contains(repl, "React.") && !importsReactNamespace(s.Content) {
			return nil, false
		}
		start := at
		// React.ReactFragment: the expansion is a whole type and replaces
		// the qualifier too.
		if q := "React."; start >= len(q) && s.Content[start-len(q):start] == q && (start == len(q) || !isIdent(s.Content[start-len(q)-1]) && s.Content[start-len(q)-1] != '.') {
			start -= len(q)
		}
		text := repl
		if strings.Contains(repl, " | ") && !unionFits(s.Content, start, at+len(old)) {
			text = "(" + repl + ")"
		}
		return []Edit{{File: s.Finding.File, Start: start, End: at + len(old), New: text}}, true
	}
}

// unionFits: a union written in place of the type reference [start, end)
// means the same without parentheses, because it stands alone between
// separators (a : or < before it, a ; , ) > = | { or line end after it).
// Anywhere else (an array ReactText[], an intersection, keyof) the
// expansion is parenthesized.
func unionFits(content string, start, end int) bool {
	before := strings.TrimRight(content[:start], " \t")
	after := strings.TrimLeft(content[end:], " \t")
	okBefore := before == "" || strings.HasSuffix(before, "=>") || strings.ContainsRune(":<,(|=", rune(before[len(before)-1]))
	if strings.HasSuffix(before, "keyof") || strings.HasSuffix(before, "&") {
		okBefore = false
	}
	okAfter := after == "" || strings.ContainsRune(";,)>=|{}\r\n", rune(after[0]))
	return okBefore && okAfter
}

// jsxImportSource: the tsconfig root cause of every "no JSX namespace"
// error under "jsx": "preserve" is one edit: "jsxImportSource": "react" on
// the line after the jsx option, indented as it is. Another jsx mode, a
// tsconfig that names a source already, or a jsx line that is not a plain
// "jsx": "preserve" property goes to the assisted fixer.
func jsxImportSource(s Site) ([]Edit, bool) {
	at, ok := tokenAt(s, "jsx")
	if !ok || at == 0 || s.Content[at-1] != '"' || strings.Contains(s.Content, "jsxImportSource") {
		return nil, false
	}
	const prop = `jsx": "preserve"`
	if !strings.HasPrefix(s.Content[at:], prop) {
		return nil, false
	}
	end := at + len(prop)
	lineStart := strings.LastIndexByte(s.Content[:at], '\n') + 1
	indent := s.Content[lineStart : at-1]
	if strings.TrimLeft(indent, " \t") != "" {
		return nil, false // not alone on its line
	}
	rest := strings.TrimLeft(s.Content[end:], " \t")
	entry := `"jsxImportSource": "react"`
	if strings.HasPrefix(rest, ",") {
		comma := end + len(s.Content[end:]) - len(rest) + 1
		return []Edit{{File: s.Finding.File, Start: comma, End: comma, New: "\n" + indent + entry + ","}}, true
	}
	return []Edit{{File: s.Finding.File, Start: end, End: end, New: ",\n" + indent + entry}}, true
}
