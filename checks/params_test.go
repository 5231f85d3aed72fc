package checks

import "testing"

func TestKindParamsValidate(t *testing.T) {
	bad := []interface{ Validate() error }{
		&stubBodyParams{},
		&stubParamParams{},
		&implImportsParams{},
		&implKernelParams{},
		&ImplLaunchParams{},
		&ImplLaunchParams{Launch: []string{"cuda.tile.launch"}, Launchers: []string{"autotune:autotuner"}},
		&ImplConstantParams{Kernel: []string{"cuda.tile.kernel"}, Constant: []string{"cuda.tile.Constant"}, TileModule: "cuda.tile", ConstArgs: []string{"arange"}},
		&implOutParams{},
		&fileNameParams{},
		&benchFunctionNameParams{Names: []string{"bench_{func}"}},
		&stepSkipParams{Steps: []int{1, 2}},
	}
	for _, p := range bad {
		if p.Validate() == nil {
			t.Errorf("%#v: no error", p)
		}
	}
	good := []interface{ Validate() error }{
		&stubBodyParams{Exception: "NotImplementedError"},
		&ImplLaunchParams{Launch: []string{"cuda.tile.launch:2,kernel"}},
		&ImplConstantParams{Kernel: []string{"cuda.tile.kernel"}, Constant: []string{"cuda.tile.Constant"}, TileModule: "cuda.tile", ConstArgs: []string{"arange:0", "load:shape"}},
		&fileNameParams{Names: []string{"test_{func}"}},
		&stepSkipParams{Steps: []int{2, 3, 4, 5, 6}},
	}
	for _, p := range good {
		if err := p.Validate(); err != nil {
			t.Errorf("%#v: %v", p, err)
		}
	}
}
