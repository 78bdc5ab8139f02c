package harness

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/transcript"
)

// Request is the test tables' compact form of one launch: the user's argv
// and the launcher's decision, as the launcher would build them. planWith
// turns it into Parse + Build exactly as launcher.runHarness and
// launcher.buildPlan do.
type Request struct {
	Args             []string
	Yolo, Fresh      bool
	LinkedSessionID  string
	NewSessionID     string
	Packet, RunDir   string
	HookCommand      []string
	BaseInstructions string // the base instructions of any session looked up
	StdinTTY         bool
	Env              map[string]string // the agent's environment (Decision.Getenv)
	MCP              *MCPServer        // the server to register (Decision.MCP)
}

// testPlan is a Plan together with the intent it was built from.
type testPlan struct {
	Plan
	Mode              Mode
	Interactive       bool
	ExplicitSelector  bool
	ExplicitSessionID string
	Delivery          Delivery
}

// Delivery names the plan's confirmation for the test tables.
type Delivery int

const (
	DeliveryNone    Delivery = iota // Confirm == nil
	DeliveryHook                    // AckFiles
	DeliveryOnStart                 // ObservedWithPacket
)

func deliveryOf(c Confirmation) Delivery {
	switch c.(type) {
	case AckFiles:
		return DeliveryHook
	case ObservedWithPacket:
		return DeliveryOnStart
	}
	return DeliveryNone
}

func planWith(pl Planner, r Request) (testPlan, error) {
	in, err := pl.Parse(r.Args, r.StdinTTY)
	if err != nil {
		return testPlan{}, err
	}
	if in.Selector && r.Fresh {
		return testPlan{}, ErrFreshWithSelector
	}
	d := Decision{Yolo: r.Yolo || in.Yolo, NewSessionID: r.NewSessionID, Packet: r.Packet,
		RunDir: r.RunDir, HookCommand: r.HookCommand, MCP: r.MCP}
	if r.Env != nil {
		d.Getenv = func(k string) string { return r.Env[k] }
	}
	if !r.Fresh && !in.Selector {
		d.Resume = r.LinkedSessionID
	}
	if r.BaseInstructions != "" {
		d.Session = func(id string) (transcript.Session, bool) {
			return transcript.Session{ID: id, Path: "/store/" + id + ".jsonl"}, true
		}
		if c, ok := pl.(codex); ok {
			c.baseInstructions = func(string) (string, error) { return r.BaseInstructions, nil }
			pl = c
		}
	}
	p, err := pl.Build(in, d)
	if err != nil {
		return testPlan{}, err
	}
	return testPlan{Plan: p, Mode: in.Mode, Interactive: in.Interactive, ExplicitSelector: in.Selector,
		ExplicitSessionID: in.SelectedID, Delivery: deliveryOf(p.Confirm)}, nil
}

// noRouteWant is what the plan tables of harnesses without a per-run
// context route (Kiro, Antigravity) check of each plan.
type noRouteWant struct {
	args        []string
	mode        Mode
	interactive bool
	explicit    bool
	explicitID  string
	session     string
	resume      bool
	notices     int
}

// checkNoRoutePlans runs such a table: each plan matches its want, delivers
// nothing, and a packet becomes a notice pointing at workstream-search.
func checkNoRoutePlans(t *testing.T, pl Planner, tests []struct {
	name string
	r    Request
	want noRouteWant
}) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := planWith(pl, tt.r)
			if err != nil {
				t.Fatal(err)
			}
			got := noRouteWant{p.Args, p.Mode, p.Interactive, p.ExplicitSelector, p.ExplicitSessionID, p.SessionID, p.Resume, len(p.Notices)}
			if got.args == nil {
				got.args = []string{}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Plan(%+v)\n got %+v\nwant %+v", tt.r, got, tt.want)
			}
			if p.Delivery != DeliveryNone || len(p.Files) != 0 || p.Env != nil {
				t.Errorf("%T delivered something: %+v", pl, p.Plan)
			}
			if tt.r.Packet != "" && !strings.Contains(p.Notices[0], "ai-memory workstream-search") {
				t.Errorf("notice %q", p.Notices)
			}
		})
	}
}
