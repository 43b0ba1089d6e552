package explicit

import (
	"context"

	"mcr/program"
)


type VerifyTSO struct{}

func (d *VerifyTSO) Name() string { return "verifytso" }
func (d *VerifyTSO) Decide(ctx context.Context, inst *program.Instance) (program.Witness, bool, error) {
	return nil, false, unsupported("verifytso", inst)
}

type VerifyPSO struct{}

func (d *VerifyPSO) Name() string { return "verifypso" }
func (d *VerifyPSO) Decide(ctx context.Context, inst *program.Instance) (program.Witness, bool, error) {
	return nil, false, unsupported("verifypso", inst)
}
