{#- __NAME__ host: a logical volume for its data, formatted and mounted, and the packages the
    Nomad docker driver needs. Every value comes from the pillar Eos renders from the
    blueprint; yaml_dquote keeps the YAML valid whatever the value holds. #}
{%- set lv_name = salt['pillar.get']('lv_name', 'data-__NAME__') %}
{%- set lv_size = salt['pillar.get']('lv_size', '10G') %}
{%- set vg_name = salt['pillar.get']('vg_name', 'vg0') %}
{%- set fs_type = salt['pillar.get']('fs_type', 'xfs') %}
{%- set mount_point = salt['pillar.get']('mount_point', '/srv/__NAME__') %}
{%- set device = '/dev/' ~ vg_name ~ '/' ~ lv_name %}

__NAME__-packages:
  pkg.installed:
    - pkgs:
      - lvm2
      - xfsprogs
      - docker.io

__NAME__-data-volume:
  lvm.lv_present:
    - name: {{ lv_name | yaml_dquote }}
    - vgname: {{ vg_name | yaml_dquote }}
    - size: {{ lv_size | yaml_dquote }}
    - require:
      - pkg: __NAME__-packages

__NAME__-data-filesystem:
  blockdev.formatted:
    - name: {{ device | yaml_dquote }}
    - fs_type: {{ fs_type | yaml_dquote }}
    - require:
      - lvm: __NAME__-data-volume

__NAME__-data-mount:
  mount.mounted:
    - name: {{ mount_point | yaml_dquote }}
    - device: {{ device | yaml_dquote }}
    - fstype: {{ fs_type | yaml_dquote }}
    - mkmnt: True
    - persist: True
    - require:
      - blockdev: __NAME__-data-filesystem
