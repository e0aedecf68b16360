package botpr

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// A lockfile compared with itself moves nothing, catalogs included (the
// moves of a real pnpm lockfile are cmd/uptide's TestBotPR… tests).
func TestMovesOfTheSameLockfile(t *testing.T) {
	base, err := os.ReadFile("../../fixtures/repos/pnpm-v9/pnpm-lock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	moves, err := Moves("pnpm-lock.yaml", base, base)
	if err != nil || len(moves) != 0 {
		t.Fatalf("the same lockfile moves %v (%v)", moves, err)
	}
}

func TestTargetsRefusesTwoVersions(t *testing.T) {
	got, err := Targets([]Move{{Importer: ".", Name: "zod", From: "3.0.0", To: "4.0.0"}, {Importer: "catalog:default", Name: "zod", From: "3.0.0", To: "4.0.0"}})
	if err != nil || !reflect.DeepEqual(got, map[string]string{"zod": "4.0.0"}) {
		t.Errorf("Targets = %v, %v", got, err)
	}
	if _, err := Targets([]Move{{Importer: "a", Name: "zod", To: "4.0.0"}, {Importer: "b", Name: "zod", To: "3.9.0"}}); err == nil || !strings.Contains(err.Error(), "zod moves to 4.0.0 and to 3.9.0") {
		t.Errorf("two targets: %v", err)
	}
}
