package cli

import (
	"fmt"
	"io"

	"github.com/uptide/uptide/engine"
	"github.com/uptide/uptide/engine/model"
)

func renderImporters(w io.Writer, pr model.PackageReport, p palette) {
	for _, line := range engine.ImporterLines(&pr) {
		fmt.Fprintf(w, "  %s\n", p.yellow(line))
	}
}
