{#- Jenkins, local variant: stands for the production state (jenkins.sls) on a laptop or a test
    minion. It manages only files under the minion's eos_data_dir (a setting of the minion's own
    configuration, which scripts/testenv/salt.sh writes): a marker standing for the data volume
    and the service's configuration file, at the paths production uses, below that directory.
    No volume, package or mount is touched. A minion without eos_data_dir refuses to run it, so
    a production host that gets this variant by mistake is left alone. #}
{%- set data_dir = salt['config.get']('eos_data_dir', '') %}
{%- set lv_name = salt['pillar.get']('lv_name', 'data-jenkins') %}
{%- set lv_size = salt['pillar.get']('lv_size', '10G') | string %}
{%- set fs_type = salt['pillar.get']('fs_type', 'xfs') %}
{%- set mount_point = salt['pillar.get']('mount_point', '/srv/jenkins') %}
{%- set domain = salt['pillar.get']('domain', '') %}
{%- set root = data_dir ~ mount_point %}
{%- if not data_dir %}

jenkins-local-needs-data-dir:
  test.fail_without_changes:
    - comment: "the local variant writes under the minion's eos_data_dir, which is not set; use the production variant on real hosts"
{%- else %}

jenkins-data-volume:
  file.managed:
    - name: {{ (root ~ '/.eos-volume') | yaml_dquote }}
    - makedirs: True
    - mode: '0640'
    - contents: {{ ('stands for logical volume ' ~ lv_name ~ ' (' ~ lv_size ~ ', ' ~ fs_type ~ ') mounted at ' ~ mount_point) | yaml_dquote }}

jenkins-config:
  file.managed:
    - name: {{ (root ~ '/jenkins.yaml') | yaml_dquote }}
    - mode: '0640'
    - contents: {{ ('# managed by Eos (Salt, local variant)\ndomain=' ~ domain ~ '\ndata=' ~ root) | yaml_dquote }}
    - require:
      - file: jenkins-data-volume
{%- endif %}
