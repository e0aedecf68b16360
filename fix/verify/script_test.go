package verify

import (
	"strings"
	"testing"
)

// Arguments appended to a test script reach its runner only when the
// runner is the script's last command and nothing after it swallows them.
func TestWithoutFiles(t *testing.T) {
	skip := []ServiceSkip{{File: "src/db.integration.test.ts"}, {File: "other/x.test.ts"}}
	for _, tc := range []struct {
		script, runner, dir, want string
	}{
		{"jest --coverage", "jest", ".", `jest --coverage --testPathIgnorePatterns=/node_modules/ '--testPathIgnorePatterns=src/db\.integration\.test\.ts' '--testPathIgnorePatterns=other/x\.test\.ts'`},
		{"tsc -b && vitest run;", "vitest", "src", "tsc -b && vitest run --exclude=db.integration.test.ts"},
		{`vitest run --reporter "dot"`, "vitest", "src", `vitest run --reporter "dot" --exclude=db.integration.test.ts`},
		// What follows the runner would take the arguments, or hide them.
		{"jest && eslint .", "jest", ".", ""},
		{"jest | tee out.txt", "jest", ".", ""},
		{"jest &", "jest", ".", ""},
		{"jest --coverage # the unit tests", "jest", ".", ""},
		{"vitest run #ci", "vitest", ".", ""},
		{"node --test", "node", ".", ""},
	} {
		got, ok := withoutFiles(tc.script, tc.runner, tc.dir, skip)
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("withoutFiles(%q) = %q, %v; want %q", tc.script, got, ok, tc.want)
		}
	}
	// A # inside a word or quotes is no comment.
	if got, ok := withoutFiles(`jest -t "issue #12" a#b`, "jest", "src", skip); !ok || !strings.HasPrefix(got, `jest -t "issue #12" a#b --testPathIgnorePatterns`) {
		t.Errorf("a # that starts no comment: %q, %v", got, ok)
	}
}

// Scripts are the repository's text: no panic, and an answer is the
// script with arguments after it.
func FuzzWithoutFiles(f *testing.F) {
	for _, s := range []string{"jest", "tsc -b && vitest run;", "jest 'a;b' \"c|d\" # e", "vitest run\n", "jest &&", "'", "jest \\\n --ci"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		if last := lastCommand(script); !strings.Contains(script, last) {
			t.Fatalf("lastCommand(%q) = %q, not in the script", script, last)
		}
		for _, runner := range []string{"jest", "vitest"} {
			got, ok := withoutFiles(script, runner, ".", []ServiceSkip{{File: "a b.test.ts"}})
			if ok && !strings.HasPrefix(got, strings.TrimRight(script, " \t\n;")+" ") {
				t.Fatalf("withoutFiles(%q) = %q: not the script with arguments after it", script, got)
			}
		}
	})
}

// Test sources are the repository's text: the loads a file makes when it
// runs are among the specifiers it names, a type-only import among none.
func FuzzRuntimeSpecifiers(f *testing.F) {
	for _, s := range []string{
		"import { PrismaClient } from '@prisma/client'\nimport type { Redis } from 'ioredis'\n",
		"export type { A } from './a'; export { b } from './b'",
		"jest.mock('pg'); const { Pool } = require('pg')",
		"import type from 'x'",
		"import typeorm from 'typeorm'",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		all := map[string]int{}
		for _, s := range specifiers(src) {
			all[s]++
		}
		for _, s := range runtimeSpecifiers(src) {
			if all[s] == 0 {
				t.Fatalf("runtimeSpecifiers(%q) names %q, which specifiers does not", src, s)
			}
			all[s]--
		}
	})
}
