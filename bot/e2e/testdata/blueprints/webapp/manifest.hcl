# A test blueprint for the end-to-end tests of the bot on a real Nomad dev agent: a Nomad part
# only, on the raw_exec driver (the test machines have no container engine), with deployments
# that settle in seconds. Not shipped in the binary.
service "webapp" {
  description = "a test workload on raw_exec"

  flag "count" {
    type        = int
    default     = 1
    description = "number of instances"
  }
  flag "fail" {
    type        = bool
    description = "run a task that exits at once, so the deployment fails"
  }

  nomad {
    job = "nomad/webapp.nomad.hcl"
    variables = {
      env   = env
      count = flag.count
      fail  = flag.fail
    }
  }
}
