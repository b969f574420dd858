# Device list for the project's QEMU build (configured with
# --without-default-devices): the machines the guests boot on, the PCIe
# plumbing, our devices and the peers we compare against.

# Machines
CONFIG_Q35=y
CONFIG_I440FX=y

# PCI(e) plumbing
CONFIG_PCIE_PORT=y
CONFIG_VIRTIO_PCI=y

# Peers: QEMU's own storage controllers
CONFIG_VIRTIO_SCSI=y
CONFIG_VIRTIO_BLK=y
CONFIG_NVME_PCI=y
CONFIG_MEGASAS_SCSI_PCI=y

# Ours (hw/megaraid/Kconfig)
CONFIG_MEGARAID_9600=y
CONFIG_MEGARAID_9500=y
