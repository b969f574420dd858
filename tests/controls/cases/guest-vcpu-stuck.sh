#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A guest whose vCPU 0 is halted with interrupts enabled while its APIC
# has the timer vector in service (the TCG stall CI met): the QEMU
# stand-in answers on the monitor socket run.sh gives it, as QEMU's human
# monitor would, and run.sh must end the run as stuck (status 122) within
# seconds rather than at the test's 600 s timeout, naming the vector.
#@ expect guest vCPU stuck: halted with interrupts enabled and vector\(s\) in service in its APIC \(CPU 0: 236\)
#@ timeout 120
. tests/controls/lib.sh
control_fake_image
cat > "$CONTROL_TMP/monitor.py" <<'EOS'
# The stand-in's human monitor: CPU 0 halted, IF set, vector 236 in service.
import socket
import sys

srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(sys.argv[1])
srv.listen(4)
cpu = 0
while True:
    conn, _ = srv.accept()
    conn.sendall(b"QEMU monitor\r\n(qemu) ")
    buf = b""
    while True:
        data = conn.recv(4096)
        if not data:
            break
        buf += data
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            cmd = line.decode().strip()
            out = ""
            if cmd.startswith("cpu "):
                cpu = int(cmd.split()[1])
            elif cmd == "info registers":
                out = ("CPU#%d\r\nRIP=ffffffff81cd1e9f RFL=00000202 [-------] "
                       "CPL=0 II=0 A20=1 SMM=0 HLT=%d\r\n" % (cpu, cpu == 0))
            elif cmd == "info lapic":
                out = ("ISR\t 236 \r\nIRR\t 37 236 \r\n" if cpu == 0 else
                       "ISR\t (none)\r\nIRR\t (none)\r\n")
            conn.sendall((cmd + "\r\n" + out + "(qemu) ").encode())
    conn.close()
EOS
control_fake_qemu '
pidf=""; mon=""; prev=""
for a; do
    [ "$prev" != -pidfile ] || pidf=$a
    [ "$prev" != -monitor ] || mon=${a#unix:}
    prev=$a
done
[ -n "$pidf" ] && [ -n "$mon" ] || { echo "stand-in: no -pidfile or -monitor"; exit 1; }
echo $$ > "$pidf"
exec python3 "'"$CONTROL_TMP"'/monitor.py" "${mon%%,*}"'
control_run_fake stuck '#@ timeout 600' '#@ smp 2' 'true'
