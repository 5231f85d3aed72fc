package config

import (
	"fmt"
	"strings"

	"github.com/tilegym/tilegym-lint/layout"
	"github.com/tilegym/tilegym-lint/rules"
)

// Setup is what a check runs with: the rule catalog, the project's
// configuration (nil for none: the catalog's defaults) and the layout the
// two give. One value, so that the three travel together.
type Setup struct {
	Catalog *rules.Catalog
	Config  *Config
	Layout  *layout.Layout
}

// NewSetup returns the setup of a catalog and a configuration (nil for
// none), with the layout a check uses: the catalog's, with the
// configuration's [layout] and exclude applied (layout.Layout.Override).
func NewSetup(cat *rules.Catalog, cfg *Config) *Setup {
	lay := cat.Layout.Override(nil, nil)
	if cfg != nil {
		lay = cat.Layout.Override(cfg.Layout, cfg.Exclude)
	}
	return &Setup{Catalog: cat, Config: cfg, Layout: lay}
}

// EnabledRules returns the catalog's rules that the configuration does not
// disable (by id, or by the prefix of their family), in catalog order.
func (s *Setup) EnabledRules() []*rules.Rule {
	disabled := map[string]bool{}
	if s.Config != nil {
		for _, id := range s.Config.Disable {
			disabled[id] = true
		}
	}
	var out []*rules.Rule
	for _, r := range s.Catalog.Rules {
		if !disabled[r.ID] && (r.Family == "" || !disabled[r.Family]) {
			out = append(out, r)
		}
	}
	return out
}

// Selection narrows the rules a check reports, on top of the
// configuration's disable: the rules Select names (all when empty) but
// those Ignore names. A selector is a rule id or a prefix of ids (TG1 is
// every TG1xx rule); case is ignored.
type Selection struct {
	Select, Ignore []string
}

// Open sets up a check of the checkout at root: the configuration file
// path names, else the one Find finds from root upwards (none is no
// error), validated against the catalog, narrowed by sel.
func Open(cat *rules.Catalog, root, path string, sel Selection) (*Setup, error) {
	var err error
	if path == "" {
		if path, err = Find(root); err != nil {
			return nil, err
		}
	}
	var cfg *Config
	if path != "" {
		if cfg, err = Load(path); err != nil {
			return nil, err
		}
		if err := cfg.Validate(cat); err != nil {
			return nil, err
		}
	}
	if cfg, err = sel.apply(cfg, cat); err != nil {
		return nil, err
	}
	return NewSetup(cat, cfg), nil
}

// apply narrows the rules of the configuration: a rule runs when the
// configuration does not disable it, a Select selector (when any is
// given) names it, and no Ignore selector does. It returns the
// configuration to check with (a new one when cfg is nil and a rule is
// left out). A selector that names no rule is an error, worded for the
// flags --select and --ignore.
func (sel Selection) apply(cfg *Config, cat *rules.Catalog) (*Config, error) {
	if len(sel.Select) == 0 && len(sel.Ignore) == 0 {
		return cfg, nil
	}
	var ids []string
	for _, r := range cat.Rules {
		ids = append(ids, r.ID)
	}
	pick := func(flag string, sels []string) (map[string]bool, error) {
		m := map[string]bool{}
		for _, s := range sels {
			got := cat.Match(s)
			if len(got) == 0 {
				return nil, fmt.Errorf("--%s %s: no rule id is or starts with %q%s (tilegym-lint rules lists them)",
					flag, s, strings.ToUpper(s), rules.DidYouMean(strings.ToUpper(s), ids))
			}
			for _, id := range got {
				m[id] = true
			}
		}
		return m, nil
	}
	selected, err := pick("select", sel.Select)
	if err != nil {
		return nil, err
	}
	ignored, err := pick("ignore", sel.Ignore)
	if err != nil {
		return nil, err
	}
	out := &Config{}
	if cfg != nil {
		c := *cfg
		out = &c
	}
	disabled := map[string]bool{}
	for _, id := range out.Disable {
		disabled[id] = true
	}
	out.Disable = append([]string(nil), out.Disable...)
	for _, id := range ids {
		if !disabled[id] && (len(selected) > 0 && !selected[id] || ignored[id]) {
			out.Disable = append(out.Disable, id)
		}
	}
	return out, nil
}
