package model

import "testing"

func TestDependencyFiles(t *testing.T) {
	for _, tt := range []struct {
		file      string
		in        bool
		pkg, rest string
	}{
		{"node_modules/zod/v4/core/api.d.ts", true, "zod", "v4/core/api.d.ts"},
		{"packages/web/node_modules/@types/react/index.d.ts", true, "@types/react", "index.d.ts"},
		{"node_modules/a/node_modules/@scope/b/x.d.ts", true, "@scope/b", "x.d.ts"},
		{"node_modules/zod", true, "zod", ""},
		{"/opt/lib/lib.dom.d.ts", true, "", "/opt/lib/lib.dom.d.ts"},
		{"src/node_modules.ts", false, "", "src/node_modules.ts"},
		{"src/user.ts", false, "", "src/user.ts"},
		{"", false, "", ""},
	} {
		if got := InDependency(tt.file); got != tt.in {
			t.Errorf("InDependency(%q) = %v", tt.file, got)
		}
		if pkg, rest := DependencyOf(tt.file); pkg != tt.pkg || rest != tt.rest {
			t.Errorf("DependencyOf(%q) = %q %q, want %q %q", tt.file, pkg, rest, tt.pkg, tt.rest)
		}
	}
}
