package repo

import (
	"testing"
)

func TestGitignore(t *testing.T) {
	tests := []struct {
		name   string
		ignore string
		path   string
		isDir  bool
		want   bool
	}{
		{"basename at any depth", "*.log", "a/b/debug.log", false, true},
		{"basename no match", "*.log", "a/b/debug.txt", false, false},
		{"comment and blank", "# *.log\n\n", "x.log", false, false},
		{"escaped hash", `\#notes`, "#notes", false, true},
		{"dir-only matches a dir", "build/", "a/build", true, true},
		{"dir-only skips a file", "build/", "a/build", false, false},
		{"anchored by a leading slash", "/todo.ts", "todo.ts", false, true},
		{"anchored not below", "/todo.ts", "src/todo.ts", false, false},
		{"anchored by a middle slash", "src/gen", "src/gen", true, true},
		{"middle slash is anchored", "src/gen", "lib/src/gen", true, false},
		{"leading **", "**/fixtures", "a/b/fixtures", true, true},
		{"leading ** at top", "**/fixtures", "fixtures", true, true},
		{"trailing ** matches inside", "out/**", "out/a/b.ts", false, true},
		{"trailing ** not the dir itself", "out/**", "out", true, false},
		{"middle **", "a/**/b", "a/x/y/b", false, true},
		{"middle ** zero dirs", "a/**/b", "a/b", false, true},
		{"negation re-includes", "*.gen.ts\n!keep.gen.ts", "src/keep.gen.ts", false, false},
		{"negation order matters", "!keep.gen.ts\n*.gen.ts", "src/keep.gen.ts", false, true},
		{"star does not cross slash", "src/*.ts", "src/a/b.ts", false, false},
		{"star matches dot names", "*", ".env", false, true},
		{"trailing spaces trimmed", "secret.ts   ", "secret.ts", false, true},
		{"escaped trailing space kept", `a\ `, "a ", false, true},
		{"CRLF line endings", "*.log\r\n", "x.log", false, true},
		{"character class", "file[0-9].ts", "file7.ts", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := ignoreStack{{rules: parseGitignore([]byte(tt.ignore))}}
			if got := st.ignored(split(tt.path), tt.isDir); got != tt.want {
				t.Errorf("%q ignores %q (dir %v) = %v, want %v", tt.ignore, tt.path, tt.isDir, got, tt.want)
			}
		})
	}
}

func TestGitignoreDeeperFileWins(t *testing.T) {
	st := ignoreStack{
		{rules: parseGitignore([]byte("*.ts\n"))},
		{base: []string{"pkg"}, rules: parseGitignore([]byte("!index.ts\n/local.ts\n"))},
	}
	tests := []struct {
		path string
		want bool
	}{
		{"pkg/index.ts", false},   // the deeper file re-includes it
		{"pkg/other.ts", true},    // the deeper file says nothing: the outer one decides
		{"pkg/local.ts", true},    // anchored to pkg/
		{"pkg/a/local.ts", true},  // *.ts from the top
		{"other/index.ts", true},  // pkg's rules do not apply outside pkg
		{"pkg/a/index.ts", false}, // basename rule below pkg
	}
	for _, tt := range tests {
		if got := st.ignored(split(tt.path), false); got != tt.want {
			t.Errorf("ignored(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}
