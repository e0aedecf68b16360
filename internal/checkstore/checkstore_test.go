package checkstore

import (
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// A whole check is kept under what it was asked: the same ask finds it
// (packages in any order, no target however spelled); another target,
// --group or the probe left out does not.
func TestRunsAreKeptByTheAsk(t *testing.T) {
	s := Store(t.TempDir())
	report := func(installed string) model.PackageReport {
		a := model.StatusAnalyzed
		return model.PackageReport{Package: "react", Installed: installed, Target: "19.3.1", Status: a,
			Compile: model.CompileReport{Status: a}, ModuleFormat: model.ModuleFormatReport{Status: a}}
	}
	rep := &model.CheckReport{Packages: []model.PackageReport{report("18.3.1"), report("17.0.2")}}
	s.SaveRun(Ask{Packages: []string{"react", "next"}, Targets: map[string]string{}, Group: true, Runtime: true}, rep)
	got := s.LoadRun(Ask{Packages: []string{"next", "react"}, Group: true, Runtime: true})
	if got == nil || len(got.Packages) != 2 || got.Packages[1].Installed != "17.0.2" {
		t.Fatalf("the same ask: %+v, want both reports", got)
	}
	for _, other := range []Ask{
		{Packages: []string{"react", "next"}, Targets: map[string]string{"react": "19.3.1"}, Group: true, Runtime: true},
		{Packages: []string{"react", "next"}, Runtime: true},
		{Packages: []string{"react", "next"}, Group: true},
		{Packages: []string{"react"}, Group: true, Runtime: true},
	} {
		if got := s.LoadRun(other); got != nil {
			t.Errorf("%+v found the check asked otherwise", other)
		}
	}
	if Store("").LoadRun(Ask{Packages: []string{"react"}}) != nil {
		t.Error("no store keeps nothing")
	}
}
