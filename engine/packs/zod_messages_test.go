package packs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestZodDefaultMessages(t *testing.T) {
	test := strings.Join([]string{
		`import { expect, it } from "vitest";`,
		`it("says so", () => {`,
		`  expect(msg).toBe("Required");`,
		`  expect(msg).toBe('Expected string, received number');`,
		"  expect(msg).toBe(`Invalid email`);",
		`  expect(msg).toBe("String must contain at least 8 character(s)");`,
		`  expect(msg).toBe("Number must be less than or equal to 10");`,
		`  expect(msg).toBe("Invalid enum value. Expected 'a' | 'b', received 'c'");`,
		`  expect(msg).toBe("Required field");`, // not zod's
		`  expect(msg).toBe("Invalid input");`,  // the same in zod 4
		`});`,
	}, "\n")
	got := zodDefaultMessages("src/form.test.ts", test)
	want := []string{
		`src/form.test.ts:3: "Required" is zod 3's default message for a missing value; zod 4 says "Invalid input: expected <type>, received undefined"`,
		`src/form.test.ts:4: "Expected string, received number" is zod 3's default message for a value of the wrong type; zod 4 says "Invalid input: expected string, received number"`,
		`src/form.test.ts:5: "Invalid email" is zod 3's default message for a string format`,
		`src/form.test.ts:6: "String must contain at least 8 character(s)" is zod 3's default message for a lower bound; zod 4 says "Too small: expected …"`,
		`src/form.test.ts:7: "Number must be less than or equal to 10" is zod 3's default message for an upper bound; zod 4 says "Too big: expected …"`,
		`src/form.test.ts:8: "Invalid enum value. Expected 'a' | 'b', received 'c'" is zod 3's default message for an enum value`,
	}
	if len(got) != len(want) {
		t.Fatalf("got %d places, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("place %d:\n%s\nwant it to start with\n%s", i, got[i], want[i])
		}
	}
	// A source file that does not load zod says nothing; one that does
	// (import, require, a subpath) is read; node_modules and other
	// extensions never.
	if got := zodDefaultMessages("src/labels.ts", `export const l = "Required";`); len(got) != 0 {
		t.Errorf("a file without zod: %q", got)
	}
	for _, src := range []string{`import { z } from "zod";`, `const { z } = require('zod');`, `import * as z from "zod/v4";`, `const z = await import("zod");`} {
		if got := zodDefaultMessages("src/schema.ts", src+"\nconst m = \"Required\";"); len(got) != 1 {
			t.Errorf("%s: %q, want the one place", src, got)
		}
	}
	for _, f := range []string{"node_modules/x/a.test.js", "docs/a.test.md"} {
		if got := zodDefaultMessages(f, `"Required"`); len(got) != 0 {
			t.Errorf("%s: %q", f, got)
		}
	}
}

func TestPlacesInBounds(t *testing.T) {
	root := t.TempDir()
	var files []string
	for i := 0; i < maxPlaces+3; i++ {
		name := fmt.Sprintf("t%02d.test.js", i)
		files = append(files, name)
		if err := os.WriteFile(filepath.Join(root, name), []byte(`expect(m).toBe("Required");`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := zodPack().PlacesIn(root, files)
	if len(got) != maxPlaces+1 || got[maxPlaces] != "… and 3 more such places" {
		t.Errorf("%d places, last %q; want %d and the count of the rest", len(got), got[len(got)-1], maxPlaces+1)
	}
}

// FuzzZodDefaultMessages: any file content gives places on its own lines,
// never a panic.
func FuzzZodDefaultMessages(f *testing.F) {
	f.Add("import { z } from \"zod\";\nexpect(m).toBe(\"Required\");\n")
	f.Add("const s = `Expected ${a}, received ${b}`;\n'Invalid email' \"String must contain at least 1 character(s)\"")
	f.Add("\"unterminated\n'\\\\'\n``")
	f.Fuzz(func(t *testing.T, content string) {
		lines := strings.Count(content, "\n") + 1
		for _, p := range zodDefaultMessages("a.test.ts", content) {
			var line int
			if _, err := fmt.Sscanf(strings.TrimPrefix(p, "a.test.ts:"), "%d:", &line); err != nil || line < 1 || line > lines {
				t.Fatalf("place %q names no line of the %d", p, lines)
			}
		}
	})
}
