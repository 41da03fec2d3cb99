{#- Authentik host: a logical volume for its data, formatted and mounted, and the packages the
    Nomad docker driver needs. Every value comes from the pillar Eos renders from the
    blueprint; filters keep the YAML valid whatever the value holds. #}
{%- set lv_name = salt['pillar.get']('lv_name', 'data-authentik') %}
{%- set lv_size = salt['pillar.get']('lv_size', '20G') %}
{%- set vg_name = salt['pillar.get']('vg_name', 'vg0') %}
{%- set fs_type = salt['pillar.get']('fs_type', 'xfs') %}
{%- set mount_point = salt['pillar.get']('mount_point', '/srv/authentik') %}
{%- set device = '/dev/' ~ vg_name ~ '/' ~ lv_name %}

authentik-packages:
  pkg.installed:
    - pkgs:
      - lvm2
      - xfsprogs
      - docker.io
      - postgresql-client

authentik-data-volume:
  lvm.lv_present:
    - name: {{ lv_name | yaml_dquote }}
    - vgname: {{ vg_name | yaml_dquote }}
    - size: {{ lv_size | yaml_dquote }}
    - require:
      - pkg: authentik-packages

authentik-data-filesystem:
  blockdev.formatted:
    - name: {{ device | yaml_dquote }}
    - fs_type: {{ fs_type | yaml_dquote }}
    - require:
      - lvm: authentik-data-volume

authentik-data-mount:
  mount.mounted:
    - name: {{ mount_point | yaml_dquote }}
    - device: {{ device | yaml_dquote }}
    - fstype: {{ fs_type | yaml_dquote }}
    - mkmnt: True
    - persist: True
    - opts:
      - defaults
      - noatime
    - require:
      - blockdev: authentik-data-filesystem

authentik-data-owner:
  file.directory:
    - name: {{ mount_point | yaml_dquote }}
    - user: 1000
    - group: 1000
    - mode: '0750'
    - require:
      - mount: authentik-data-mount
