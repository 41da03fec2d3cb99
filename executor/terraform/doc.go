// Package terraform is the Terraform layer of the executor: it turns a Spec's Terraform parts
// into one working directory per unit (WorkDir/<env>/<service>), plans and applies them with
// the terraform CLI through hashicorp/terraform-exec, parses plans and the machine-readable UI
// with hashicorp/terraform-json, reports progress as executor.Events, checks drift and rolls
// back.
//
// It owns the working directories, the generated CLI configuration (so the host's
// ~/.terraformrc and TF_* variables never leak into a run) and the saved plan files. Variables
// reach Terraform only as a tfvars JSON file, never by pasting text into HCL.
//
// It imports executor and nothing else of Eos; it never knows it is driven from chat.
package terraform
