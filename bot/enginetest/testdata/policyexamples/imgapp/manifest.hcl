# A test blueprint for the example policies (examples/policies), planned on the Nomad test
# agent: a container whose image and memory are flags. The tests only plan it (the test
# machines have no container engine); an earlier version is registered behind Eos's back so
# that the plan is an update whose diff names the image and the memory. Not shipped.
service "imgapp" {
  description = "a container with a chosen image and memory (policy example tests)"

  flag "image" {
    type        = string
    default     = "nginx:1.27.3"
    description = "the container image"
  }
  flag "memory" {
    type        = int
    default     = 256
    description = "memory in MiB"
  }

  nomad {
    job = "nomad/imgapp.nomad.hcl"
    variables = {
      env    = env
      image  = flag.image
      memory = flag.memory
    }
  }
}
