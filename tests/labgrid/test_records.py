# tests/labgrid/test_records.py: the records the labgrid tests pull from a
# console (fsblg.pull_records), without a boot: a record line as it is; a
# kernel message the console printed right after a record, before its
# newline, left out (with a '}' of its own too); a line torn by a cut and
# boot noise left out; a record line that is not JSON counted as bad; the
# run_end line found by REC_RE with a kernel message after it.
import json

from fsblg import REC_RE, pull_records

A = '{"type":"phase","seq":3,"fs":"ext4","files":200}'
B = '{"type":"verify_error","seq":4,"path":"d0000/f0000001"}'
END = '{"type":"run_end","seq":5,"status":"ok"}'


def test_pull_records(tmp_path):
    lines = [
        '[    1.000000] Linux version 6.1.0',
        'FSBENCH:' + A,
        'FSBENCH:' + B + '[   12.555790] Buffer I/O error on dev nvme0n1, logical block 0, lost sync page write',
        'FSBENCH:' + A.replace('"seq":3', '"seq":6') + '[   13.000001] dm-0: {odd} text',
        'FSBENCH:{"type":"phase","seq":7,"fs":"xf',
        'FSBENCH:{"type":"phase",}',
        'FSBENCH:' + END + '\r',
    ]
    path = tmp_path / 'records.jsonl'
    records, bad = pull_records(lines, str(path))
    assert [r['seq'] for r in records] == [3, 4, 6, 5]
    assert records[1] == json.loads(B)
    assert bad == ['FSBENCH:{"type":"phase",}']
    written = path.read_text().splitlines()
    assert written[1] == B and written[2] == A.replace('"seq":3', '"seq":6')
    assert len(written) == 5


def test_run_end_with_a_kernel_message():
    assert REC_RE.search('FSBENCH:' + END + '[   20.100000] reboot: Power down')
    assert not REC_RE.search('FSBENCH:{"type":"run_end","seq":5,"sta')
