package model

import (
	"fmt"
	"strconv"
	"strings"
)

// The words the reports use for verdicts, statuses, update kinds, risk
// levels and companion reasons are typed here, once. Each marshals as the
// word itself (so every JSON envelope reads as it always did) and refuses
// any other word on the way in: a stored report naming an unknown status is
// an error, never a silent zero. Code decides on these values; the prose
// beside them (Reason, Why, Summary) is for display only.

// word is the one reading of every typed word: s must be one of words.
func word[T ~string](dst *T, what string, b []byte, words ...T) error {
	s := T(b)
	for _, w := range words {
		if s == w {
			*dst = s
			return nil
		}
	}
	names := make([]string, len(words))
	for i, w := range words {
		names[i] = strconv.Quote(string(w))
	}
	return fmt.Errorf("unknown %s %q: want one of %s", what, s, strings.Join(names, ", "))
}

// Verdict is the honest verdict on one checked package.
type Verdict string

// The verdicts.
const (
	// VerdictNone: nothing was analyzed (left out of JSON).
	VerdictNone     Verdict = ""
	VerdictBreaking Verdict = "breaking"
	VerdictPossible Verdict = "possible"
	VerdictSafe     Verdict = "safe"
	VerdictPartial  Verdict = "partial"
	VerdictUnknown  Verdict = "unknown"
	// VerdictUnchecked: a plan step no check result covers (plan's word;
	// a check never says it).
	VerdictUnchecked Verdict = "unchecked"
)

// UnmarshalText accepts only the verdicts above.
func (v *Verdict) UnmarshalText(b []byte) error {
	return word(v, "verdict", b, VerdictBreaking, VerdictPossible, VerdictSafe, VerdictPartial, VerdictUnknown, VerdictUnchecked)
}

// Rank orders verdicts from the best to the worst: safe (or none) 0,
// possible 1, partial and unknown 2, breaking 3. Merged results keep the
// worst; unchecked ranks with none, since it says nothing.
func (v Verdict) Rank() int {
	switch v {
	case VerdictBreaking:
		return 3
	case VerdictPartial, VerdictUnknown:
		return 2
	case VerdictPossible:
		return 1
	}
	return 0
}

// Incomplete: the verdict does not cover every site (partial, unknown).
func (v Verdict) Incomplete() bool { return v == VerdictPartial || v == VerdictUnknown }

// AnalysisStatus says whether an analysis ran. Absence never means clean:
// an analysis that did not run is present with one of these and a reason.
type AnalysisStatus string

// The statuses of an analysis.
const (
	// StatusAnalyzed: the analysis ran over everything it was asked about.
	StatusAnalyzed AnalysisStatus = "analyzed"
	// StatusPartial: it ran, but some of what it was asked about was not
	// covered (the reason says what).
	StatusPartial AnalysisStatus = "partial"
	// StatusNotAnalyzed: it could not run (the reason says why).
	StatusNotAnalyzed AnalysisStatus = "not-analyzed"
	// StatusSkipped: it was deliberately not run (--no-compile, nothing to
	// judge, already at the target).
	StatusSkipped AnalysisStatus = "skipped"
)

// UnmarshalText accepts only the statuses above.
func (s *AnalysisStatus) UnmarshalText(b []byte) error {
	return word(s, "analysis status", b, StatusAnalyzed, StatusPartial, StatusNotAnalyzed, StatusSkipped)
}

// RowStatus says whether a dependency row's registry metadata was read.
type RowStatus string

// The row statuses.
const (
	// RowOK: the registry answered; Latest, Target and Update are known.
	RowOK RowStatus = "ok"
	// RowNotChecked: the registry did not answer (the row's reason says why).
	RowNotChecked RowStatus = "not-checked"
)

// UnmarshalText accepts only the row statuses above.
func (s *RowStatus) UnmarshalText(b []byte) error {
	return word(s, "row status", b, RowOK, RowNotChecked)
}

// UpdateLevel is how far an upgrade moves a version.
type UpdateLevel string

// The levels, in the words of the KIND column.
const (
	LevelPatch UpdateLevel = "patch"
	LevelMinor UpdateLevel = "minor"
	LevelMajor UpdateLevel = "major"
	// LevelPrerelease: only the prerelease part moves (2.0.0-rc.1 → 2.0.0).
	LevelPrerelease UpdateLevel = "prerelease"
)

// UpdateKind names an upgrade from one version to another. The zero value
// is no upgrade (equal versions, a downgrade, unreadable versions).
type UpdateKind struct {
	Level UpdateLevel
	// Majors counts the breaking lines a major crosses (1 for a plain
	// major); 0 for the other levels.
	Majors int
}

// Major is the kind of an upgrade crossing n breaking lines.
func Major(n int) UpdateKind { return UpdateKind{Level: LevelMajor, Majors: max(n, 1)} }

// IsMajor: the upgrade crosses at least one breaking line.
func (k UpdateKind) IsMajor() bool { return k.Level == LevelMajor }

// IsZero: no upgrade (left out of JSON under omitzero).
func (k UpdateKind) IsZero() bool { return k.Level == "" }

// String is the word the reports print: "patch", "minor", "major",
// "major ×N" past one breaking line, "prerelease", or "" for none.
func (k UpdateKind) String() string {
	if k.Level == LevelMajor && k.Majors > 1 {
		return fmt.Sprintf("%s ×%d", LevelMajor, k.Majors)
	}
	return string(k.Level)
}

// MarshalText writes String.
func (k UpdateKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads what MarshalText writes, and nothing else.
func (k *UpdateKind) UnmarshalText(b []byte) error {
	s := string(b)
	if rest, ok := strings.CutPrefix(s, string(LevelMajor)+" ×"); ok {
		n, err := strconv.Atoi(rest)
		if err != nil || n < 2 || strconv.Itoa(n) != rest {
			return fmt.Errorf("unknown update kind %q: want \"major ×N\" with N a whole number above 1", s)
		}
		*k = Major(n)
		return nil
	}
	var l UpdateLevel
	if err := word(&l, "update kind", b, LevelPatch, LevelMinor, LevelMajor, LevelPrerelease); err != nil {
		return err
	}
	*k = UpdateKind{Level: l}
	if l == LevelMajor {
		*k = Major(1)
	}
	return nil
}

// CompanionKind says why a companion moves with an upgrade.
type CompanionKind string

// The companion kinds.
const (
	// CompanionGroupMember: a member of the release group the upgrade
	// moves together.
	CompanionGroupMember CompanionKind = "group-member"
	// CompanionRule: a package the companion rules move along (a lockstep
	// release, an @types release, a peer range, a pin).
	CompanionRule CompanionKind = "companion"
	// CompanionMissingPeer: a peer the target requires that the
	// repository's manager does not install; the upgrade adds it.
	CompanionMissingPeer CompanionKind = "missing-peer"
	// CompanionRemoval: a package the upgrade makes needless (an @types
	// package whose package now ships its own declarations).
	CompanionRemoval CompanionKind = "removal"
)

// UnmarshalText accepts only the companion kinds above.
func (c *CompanionKind) UnmarshalText(b []byte) error {
	return word(c, "companion kind", b, CompanionGroupMember, CompanionRule, CompanionMissingPeer, CompanionRemoval)
}

// CompanionReason is why a companion moves, for code to decide on: the
// companion's Why says it in words.
type CompanionReason struct {
	Kind CompanionKind
	// Follows names what the companion moves with: the package whose
	// upgrade drags it along, or the release group's title.
	Follows string
}

// FixStatus is how a fix run ended.
type FixStatus string

// The statuses of a fix run.
const (
	// FixVerified: zero new diagnostics, no site left, no failing or
	// timed-out test, no new lint failure, the checkout unchanged.
	FixVerified FixStatus = "verified"
	// FixFailed: the upgrade ran and verification did not pass.
	FixFailed FixStatus = "failed"
	// FixNotRun: fix stopped before or during the upgrade (a dirty
	// checkout, a conflict, an install that failed, an interrupt); nothing
	// was verified.
	FixNotRun FixStatus = "not-run"
)

// UnmarshalText accepts only the fix statuses above.
func (s *FixStatus) UnmarshalText(b []byte) error {
	return word(s, "fix status", b, FixVerified, FixFailed, FixNotRun)
}

// RiskLevel is how much a fix run leaves to trust.
type RiskLevel string

// The risk levels.
const (
	RiskLow    RiskLevel = "low"
	RiskMedium RiskLevel = "medium"
	RiskHigh   RiskLevel = "high"
)

// UnmarshalText accepts only the risk levels above.
func (r *RiskLevel) UnmarshalText(b []byte) error {
	return word(r, "risk level", b, RiskLow, RiskMedium, RiskHigh)
}

// TestStatus is how one test run of fix's verification ended.
type TestStatus string

// The statuses of a test run.
const (
	TestPassed   TestStatus = "passed"
	TestFailed   TestStatus = "failed"
	TestTimedOut TestStatus = "timed-out"
	// TestNoTests: the runner found nothing to run.
	TestNoTests TestStatus = "no-tests"
	// TestError: the runner itself could not start or crashed.
	TestError TestStatus = "error"
)

// UnmarshalText accepts only the test statuses above.
func (s *TestStatus) UnmarshalText(b []byte) error {
	return word(s, "test status", b, TestPassed, TestFailed, TestTimedOut, TestNoTests, TestError)
}

// Phase names the part of a fix run a progress line belongs to. The CLI
// prints it before the line ("fix: install: …") and starts a new line
// where it changes; the planner's review screen prefixes each line with
// it. A phase is shown, never parsed: code that decides on the run reads
// the report.
type Phase string

// The phases of a fix run, in the order a run enters them.
const (
	PhaseCheck   Phase = "check"
	PhaseClone   Phase = "clone"
	PhaseCompile Phase = "compile"
	PhaseInstall Phase = "install"
	// PhaseEdits: the pack's rule edits and the accepted patches.
	PhaseEdits Phase = "edits"
	// PhaseAssist: the assisted fixer's proposals.
	PhaseAssist Phase = "assist"
	PhaseFormat Phase = "format"
	PhaseLint   Phase = "lint"
	PhaseTests  Phase = "tests"
	// PhaseBisect: a batch whose verification failed, bisected to the step
	// that broke.
	PhaseBisect  Phase = "bisect"
	PhasePublish Phase = "publish"
)

// UnmarshalText accepts only the phases above.
func (p *Phase) UnmarshalText(b []byte) error {
	return word(p, "fix phase", b, PhaseCheck, PhaseClone, PhaseCompile, PhaseInstall, PhaseEdits, PhaseAssist,
		PhaseFormat, PhaseLint, PhaseTests, PhaseBisect, PhasePublish)
}
