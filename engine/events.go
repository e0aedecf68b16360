package engine

// Phase names a step of an engine call, for progress lines and --verbose.
type Phase string

// The phases of Discover.
const (
	PhaseRepository Phase = "repository"
	PhaseLockfile   Phase = "lockfile"
	PhaseRegistry   Phase = "registry"
	PhaseGroups     Phase = "groups"
	PhaseImporters  Phase = "importers"
)

// Event is one piece of progress. Done/Total count units of the phase
// (registry answers received / asked) when the phase has units.
type Event struct {
	Phase   Phase
	Done    int
	Total   int
	Package string
	// Finished marks the end of the phase.
	Finished bool
}

// Sink receives events. It is called from engine goroutines and must not
// block for long; nil discards events.
type Sink func(Event)

func (s Sink) emit(e Event) {
	if s != nil {
		s(e)
	}
}
