package modformat

import "testing"

func TestHasRequireESM(t *testing.T) {
	tests := []struct {
		v          string
		yes, known bool
	}{
		{"", false, false},
		{"garbage", false, false},
		{"22", true, true},       // the newest 22 has it
		{"20", true, true},       // the newest 20 has it
		{"22.11", false, true},   // explicit older minor
		{"22.11.0", false, true}, // ...and patch
		{"22.12", true, true},
		{"22.12.0", true, true},
		{"20.18", false, true},
		{"20.18.3", false, true},
		{"20.19", true, true},
		{"20.19.0", true, true},
		{"21", false, true}, // only behind a flag
		{"21.7.3", false, true},
		{"18", false, true},
		{"23", true, true},
		{"23.0.0", true, true},
		{"24", true, true},
		{"lts", true, true},
		{"latest", true, true},
		{"1.2.3.4", false, false},
	}
	for _, tt := range tests {
		yes, known := HasRequireESM(tt.v)
		if yes != tt.yes || known != tt.known {
			t.Errorf("HasRequireESM(%q) = %v, %v; want %v, %v", tt.v, yes, known, tt.yes, tt.known)
		}
	}
}

func TestNormalizeVersion(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"22", "22", true},
		{"v22", "22", true},
		{"v22.11.0", "22.11.0", true},
		{"22.x", "22", true},
		{"20.18.x", "20.18", true},
		{"lts/*", "lts", true},
		{"lts/iron", "20", true},
		{"lts/hydrogen", "18", true},
		{"lts/nonsense", "", false},
		{"node", "latest", true},
		{"current", "latest", true},
		{"^20.11.0", "20", true},
		{"~20.11.0", "20.11", true},
		{">=20", "latest", true},
		{"'22'", "22", true},
		{"system", "", false},
		{"", "", false},
		{"22.1.2.3", "", false},
		{"abc", "", false},
		{"22.11.0-rc.1", "22.11.0", true},
		{"022", "22", true},
	}
	for _, tt := range tests {
		got, ok := normalizeVersion(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("normalizeVersion(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestEnginesLowest(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{">=20", "20", true},
		{">= 20", "20", true},
		{">=20.0.0", "20.0.0", true},
		{">=20.11", "20.11", true},
		{"^18 || ^20 || >=22", "18", true},
		{"^20.19.0 || >=22.12.0", "20.19.0", true},
		{">=22 || 20.x", "20", true},
		{"18 - 22", "18", true},
		{">20", "21", true},
		{">20.18", "20.19", true},
		{">=18 <23", "18", true},
		{">=18 >=20.5", "20.5", true},
		{"*", "", false},
		{"", "", false},
		{"<22", "", false},
		{"v20", "20", true},
		{"~20.11.0", "20.11.0", true},
		{"hello", "", false},
	}
	for _, tt := range tests {
		got, ok := enginesLowest(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("enginesLowest(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCompareVersions(t *testing.T) {
	ordered := []string{"16", "18.20", "18", "20.18.3", "20.18", "20", "22.11.0", "22", "24", "lts", "latest"}
	for i := 0; i+1 < len(ordered); i++ {
		if c := compareVersions(ordered[i], ordered[i+1]); c >= 0 {
			t.Errorf("compareVersions(%q, %q) = %d; want < 0", ordered[i], ordered[i+1], c)
		}
		if c := compareVersions(ordered[i+1], ordered[i]); c <= 0 {
			t.Errorf("compareVersions(%q, %q) = %d; want > 0", ordered[i+1], ordered[i], c)
		}
	}
}
