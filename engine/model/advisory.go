package model

// Advisory is one security advisory as the registry's bulk advisory
// endpoint returns it (the shape `npm audit` reads).
type Advisory struct {
	ID    int    `json:"id"`
	URL   string `json:"url"`
	Title string `json:"title"`
	// Severity is low, moderate, high or critical.
	Severity string `json:"severity"`
	// VulnerableVersions is the semver range the advisory covers.
	VulnerableVersions string   `json:"vulnerable_versions"`
	CWE                []string `json:"cwe,omitempty"`
	CVSS               *CVSS    `json:"cvss,omitempty"`
}

// CVSS is an advisory's score.
type CVSS struct {
	Score        float64 `json:"score"`
	VectorString string  `json:"vectorString"`
}
