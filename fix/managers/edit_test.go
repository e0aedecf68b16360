package managers

import (
	"testing"
)

func TestStyledRange(t *testing.T) {
	for _, tt := range []struct {
		spec, exact, styled string
		ok                  bool
	}{
		{"^1.2.3", "2.0.0", "^2.0.0", true},
		{"~1.2.3", "2.0.0", "~2.0.0", true},
		{"^1", "2.0.0", "^2.0.0", true},
		{"1.2.3", "2.0.0", "2.0.0", true},
		{"npm:lodash@^4.17.20", "npm:lodash@2.0.0", "npm:lodash@^2.0.0", true},
		{"npm:@s/x@~1.0.0", "npm:@s/x@2.0.0", "npm:@s/x@~2.0.0", true},
		{">=1 <2", "", "", false},
		{"1.x", "", "", false},
		{"*", "", "", false},
		{"latest", "", "", false},
		{"^1 || ^2", "", "", false},
		{"github:u/r", "", "", false},
		{"npm:lodash", "", "", false},
	} {
		exact, styled, ok := styledRange(tt.spec, "2.0.0")
		if ok != tt.ok || exact != tt.exact || styled != tt.styled {
			t.Errorf("styledRange(%q) = %q, %q, %v; want %q, %q, %v", tt.spec, exact, styled, ok, tt.exact, tt.styled, tt.ok)
		}
	}
}

func TestSetJSONStringKeepsEveryOtherByte(t *testing.T) {
	in := "{\n\t\"name\": \"x\",\n\t\"dependencies\": {\"zod\":   \"^3.22.4\", \"a\\\"b\": \"1\"},\n\t\"devDependencies\": {\n\t\t\"zod\": \"x\"\n\t}\n}\n"
	out, err := setJSONString([]byte(in), "^3.25.76", "dependencies", "zod")
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n\t\"name\": \"x\",\n\t\"dependencies\": {\"zod\":   \"^3.25.76\", \"a\\\"b\": \"1\"},\n\t\"devDependencies\": {\n\t\t\"zod\": \"x\"\n\t}\n}\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if _, err := setJSONString([]byte(in), "1", "peerDependencies", "zod"); err == nil {
		t.Error("a missing member was edited")
	}
	if _, err := setJSONString([]byte(`{"dependencies": {"zod": "1"`), "2", "dependencies", "zod"); err == nil {
		t.Error("truncated JSON was edited")
	}
}

func TestAddJSONDependency(t *testing.T) {
	in := "{\n    \"name\": \"x\",\n    \"dependencies\": {\n        \"zod\": \"1.0.0\"\n    }\n}\n"
	out, err := addJSONDependency([]byte(in), "dependencies", "@s/peer", "10.4.0")
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n    \"name\": \"x\",\n    \"dependencies\": {\n        \"zod\": \"1.0.0\",\n        \"@s/peer\": \"10.4.0\"\n    }\n}\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	in = "{\n  \"name\": \"x\"\n}\n"
	out, err = addJSONDependency([]byte(in), "dependencies", "p", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	want = "{\n  \"name\": \"x\",\n  \"dependencies\": {\n    \"p\": \"1.0.0\"\n  }\n}\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if _, err := addJSONDependency([]byte(out), "dependencies", "p", "2.0.0"); err == nil {
		t.Error("a second p was added")
	}
}

// An @types package a target makes needless is deleted with its comma and
// line, wherever it stands in the object.
func TestRemoveJSONMember(t *testing.T) {
	in := "{\n  \"name\": \"x\",\n  \"devDependencies\": {\n    \"@types/bcryptjs\": \"^2.4.6\",\n    \"@types/node\": \"^20\",\n    \"@types/pino\": \"^6.3.12\"\n  }\n}\n"
	for _, tc := range []struct{ name, want string }{
		{"@types/bcryptjs", "{\n  \"name\": \"x\",\n  \"devDependencies\": {\n    \"@types/node\": \"^20\",\n    \"@types/pino\": \"^6.3.12\"\n  }\n}\n"},
		{"@types/node", "{\n  \"name\": \"x\",\n  \"devDependencies\": {\n    \"@types/bcryptjs\": \"^2.4.6\",\n    \"@types/pino\": \"^6.3.12\"\n  }\n}\n"},
		{"@types/pino", "{\n  \"name\": \"x\",\n  \"devDependencies\": {\n    \"@types/bcryptjs\": \"^2.4.6\",\n    \"@types/node\": \"^20\"\n  }\n}\n"},
	} {
		out, err := removeJSONMember([]byte(in), "devDependencies", tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != tc.want {
			t.Errorf("removing %s: got\n%s\nwant\n%s", tc.name, out, tc.want)
		}
	}
	out, err := removeJSONMember([]byte("{\"devDependencies\": {\"@types/x\": \"1\"}}"), "devDependencies", "@types/x")
	if err != nil || string(out) != "{\"devDependencies\": {}}" {
		t.Errorf("removing the only member: %q, %v", out, err)
	}
	if _, err := removeJSONMember([]byte(in), "devDependencies", "@types/nope"); err == nil {
		t.Error("removing a member that is not there succeeded")
	}
	// A key a merge wrote twice: npm reads the last, so both go.
	out, err = removeJSONMember([]byte(`{"devDependencies": {"@types/x": "1", "a": "1", "@types/x": "2"}}`), "devDependencies", "@types/x")
	if err != nil || string(out) != `{"devDependencies": {"a": "1"}}` {
		t.Errorf("removing a key written twice: %q, %v", out, err)
	}
}

func TestSetCatalogEntryKeepsFormatting(t *testing.T) {
	in := "packages:\n  - \"apps/*\"\n\n# shared\ncatalog:\n  zod: '~3.22.4'   # old\n  kleur: ^4.1.5\ncatalogs:\n  react18:\n    \"@types/react\": \"^18.3.0\"\n    react: ^18.3.1 # pinned\n"
	out, err := setCatalogEntry([]byte(in), "default", "zod", "~3.25.76")
	if err != nil {
		t.Fatal(err)
	}
	out, err = setCatalogEntry(out, "default", "kleur", "^5.0.0")
	if err != nil {
		t.Fatal(err)
	}
	out, err = setCatalogEntry(out, "react18", "react", "^19.1.0")
	if err != nil {
		t.Fatal(err)
	}
	out, err = setCatalogEntry(out, "react18", "@types/react", "^19.1.2")
	if err != nil {
		t.Fatal(err)
	}
	want := "packages:\n  - \"apps/*\"\n\n# shared\ncatalog:\n  zod: '~3.25.76'   # old\n  kleur: ^5.0.0\ncatalogs:\n  react18:\n    \"@types/react\": \"^19.1.2\"\n    react: ^19.1.0 # pinned\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if _, err := setCatalogEntry([]byte(in), "nope", "zod", "1"); err == nil {
		t.Error("an unknown catalog was edited")
	}
}
