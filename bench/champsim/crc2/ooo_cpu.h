/* ooo_cpu.h - empty: the CRC2-era replacement files include it and use nothing of it. */
