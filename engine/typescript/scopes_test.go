package typescript

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func TestEnclosing(t *testing.T) {
	a := sharedAdapter(t)
	src := strings.Join([]string{
		/* 1 */ `import { useRef } from 'react';`,
		/* 2 */ ``,
		/* 3 */ `export function Form(): JSX.Element {`,
		/* 4 */ `  const input = useRef<HTMLInputElement>();`,
		/* 5 */ `  return <input ref={input} />;`,
		/* 6 */ `}`,
		/* 7 */ ``,
		/* 8 */ `export const Item = (props: { children: ReactChild }) => {`,
		/* 9 */ `  return <li>{props.children}</li>;`,
		/* 10 */ `};`,
		/* 11 */ ``,
		/* 12 */ `class Store {`,
		/* 13 */ `  ref: RefObject<HTMLElement> = createRef();`,
		/* 14 */ `  get value() {`,
		/* 15 */ `    return this.ref.current;`,
		/* 16 */ `  }`,
		/* 17 */ `}`,
		/* 18 */ `type Child = ReactChild;`,
		/* 19 */ `const config = {`,
		/* 20 */ `  a: 1,`,
		/* 21 */ `};`,
	}, "\n") + "\n"
	lines := []int{1, 3, 4, 5, 9, 13, 15, 18, 20}
	got, err := a.Enclosing(context.Background(), "src/form.tsx", src, lines)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i, r := range got {
		fmt.Fprintf(&b, "%d:%d-%d ", lines[i], r.Start, r.End)
	}
	// An import is its own statement; a line in a function is the function;
	// an arrow function comes with its variable statement; a class member
	// outside any method is the member; a getter is the getter.
	want := "1:1-1 3:3-6 4:3-6 5:3-6 9:8-10 13:13-13 15:14-16 18:18-18 20:19-21 "
	if b.String() != want {
		t.Errorf("scopes\n got %s\nwant %s", b.String(), want)
	}

	// A function longer than the cap gives its statement instead.
	long := "function big() {\n" + strings.Repeat("  call();\n", 200) + "  const r = useRef();\n}\n"
	got, err = a.Enclosing(context.Background(), "big.ts", long, []int{202})
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != (LineRange{202, 202}) {
		t.Errorf("a line of a 203-line function: got %v, want its statement 202-202", got[0])
	}

	if _, err := a.Enclosing(context.Background(), "big.ts", long, []int{900}); err == nil || !strings.Contains(err.Error(), "line 900 is not in the file") {
		t.Errorf("a line past the end: %v", err)
	}
}

// Ancestors gives the parser's nodes at an offset, innermost first, with
// byte ranges, also after characters UTF-16 counts differently.
func TestAncestors(t *testing.T) {
	a := sharedAdapter(t)
	src := "const s = \"é😀\";\nexport const u = z.object({ a: z.string() }).strict();\n"
	at := strings.Index(src, "strict")
	got, err := a.Ancestors(context.Background(), "a.ts", src, []int{at, len(src) + 5})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, n := range got[0][:4] {
		fmt.Fprintf(&b, "%s %q\n", n.Kind, src[n.Start:n.End])
	}
	want := `Identifier "strict"
PropertyAccessExpression "z.object({ a: z.string() }).strict"
CallExpression "z.object({ a: z.string() }).strict()"
VariableDeclaration "u = z.object({ a: z.string() }).strict()"
`
	if b.String() != want {
		t.Errorf("ancestors:\n%s\nwant:\n%s", b.String(), want)
	}
	if len(got[1]) != 0 {
		t.Errorf("an offset past the end has nodes: %v", got[1])
	}
	if _, err := a.Ancestors(context.Background(), "a.ts", src, []int{strings.Index(src, "é") + 1}); err == nil {
		t.Error("an offset inside a character was answered")
	}
}
