variable "env" {
  type = string
}

job "nomadholdsdataforgotten" {
  datacenters = ["dc1"]
  meta {
    env = var.env
  }

  group "app" {
    task "app" {
      driver = "raw_exec"
      config {
        command = "/bin/true"
      }
    }
  }

  group "db" {
    task "db" {
      driver = "raw_exec"
      config {
        command = "/bin/true"
      }
    }
  }
}
