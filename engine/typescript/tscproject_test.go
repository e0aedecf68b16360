package typescript

import (
	"reflect"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

func TestNewUnderTarget(t *testing.T) {
	d := func(file string, line, code int, msg string) model.Diagnostic {
		return model.Diagnostic{File: file, Line: line, Column: 1, Code: code, Message: msg}
	}
	base := []model.Diagnostic{d("a.ts", 3, 2322, "Type 'string' is not assignable to type 'number'."), d("a.ts", 9, 2322, "x")}
	target := []model.Diagnostic{
		// Reworded by the newer compiler, same place and code: not new.
		d("a.ts", 3, 2322, "Type '\"three\"' is not assignable to type 'number'."),
		d("a.ts", 9, 2322, "x"),
		// Twice where the baseline had it once: one is new.
		d("a.ts", 9, 2322, "x"),
		d("tsconfig.json", 1, 5102, "Option 'baseUrl' has been removed."),
	}
	got := NewUnderTarget(base, target)
	want := []model.Diagnostic{d("a.ts", 9, 2322, "x"), d("tsconfig.json", 1, 5102, "Option 'baseUrl' has been removed.")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if got := NewUnderTarget(base, nil); got == nil || len(got) != 0 {
		t.Errorf("nothing under the target: got %#v, want an empty list", got)
	}
}
