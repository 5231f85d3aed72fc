package checker

import "testing"

func TestParams123Validate(t *testing.T) {
	bad := []interface{ Validate() error }{
		&dispatchStubParams{Check: "kwarg"},
		&dispatchStubParams{Check: "body"},
		&implModuleParams{Check: "launch"},
		&implModuleParams{Check: "constant", Kernel: []string{"cuda.tile.kernel"}, Constant: []string{"cuda.tile.Constant"}, TileModule: "cuda.tile", ConstArgs: []string{"arange"}},
		&cutileInitParams{Check: "modules"},
		&opNamesParams{Check: "test"},
		&stepSkipParams{Steps: []int{1, 2}},
	}
	for _, p := range bad {
		if p.Validate() == nil {
			t.Errorf("%#v: no error", p)
		}
	}
	good := []interface{ Validate() error }{
		&dispatchStubParams{Check: "kwargs"},
		&implModuleParams{Check: "constant", Kernel: []string{"cuda.tile.kernel"}, Constant: []string{"cuda.tile.Constant"}, TileModule: "cuda.tile", ConstArgs: []string{"arange:0", "load:shape"}},
		&cutileInitParams{Check: "order"},
		&opNamesParams{Check: "module"},
		&stepSkipParams{Steps: []int{2, 3, 4, 5, 6}},
	}
	for _, p := range good {
		if err := p.Validate(); err != nil {
			t.Errorf("%#v: %v", p, err)
		}
	}
}
