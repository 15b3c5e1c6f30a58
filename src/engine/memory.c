/* The memory budget (see memory.h). */
#include "engine/memory.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void mem_init(mem_budget *m, uint64_t budget) {
    memset(m, 0, sizeof *m);
    m->budget = budget;
}

static void note_peak(mem_budget *m) {
    if (mem_used(m) > m->peak_used)
        m->peak_used = mem_used(m);
}

void mem_take_srs(mem_budget *m, uint64_t n) {
    m->srs_bytes += n;
    note_peak(m);
}

void mem_put_srs(mem_budget *m, uint64_t n) { m->srs_bytes -= n < m->srs_bytes ? n : m->srs_bytes; }

void mem_take_pce(mem_budget *m, uint64_t n) {
    m->pce_bytes += n;
    note_peak(m);
}

void mem_put_pce(mem_budget *m, uint64_t n) { m->pce_bytes -= n < m->pce_bytes ? n : m->pce_bytes; }

void mem_take_parts(mem_budget *m, uint64_t n) {
    m->part_bytes += n;
    if (m->part_bytes > m->peak_part_bytes)
        m->peak_part_bytes = m->part_bytes;
    note_peak(m);
}

void mem_put_parts(mem_budget *m, uint64_t n) {
    m->part_bytes -= n < m->part_bytes ? n : m->part_bytes;
}

void mem_take_retry(mem_budget *m, uint64_t n) {
    m->retry_bytes += n;
    if (m->retry_bytes > m->peak_retry_bytes)
        m->peak_retry_bytes = m->retry_bytes;
    mem_take_parts(m, n);
}

void mem_put_retry(mem_budget *m, uint64_t n) {
    m->retry_bytes -= n < m->retry_bytes ? n : m->retry_bytes;
    mem_put_parts(m, n);
}

int mem_request_fits(const mem_budget *m, uint64_t n) {
    uint64_t fixed = m->work_max + m->pce_bytes;
    return fixed <= m->budget && n <= m->budget - fixed && m->req_bytes <= m->budget - fixed - n;
}

void mem_take_req(mem_budget *m, uint64_t n) {
    m->req_bytes += n;
    note_peak(m);
}

void mem_put_req(mem_budget *m, uint64_t n) { m->req_bytes -= n < m->req_bytes ? n : m->req_bytes; }

void mem_actual_add(mem_budget *m, uint64_t n) {
    m->part_actual += n;
    if (m->part_actual > m->peak_part_actual)
        m->peak_part_actual = m->part_actual;
}

void mem_actual_sub(mem_budget *m, uint64_t n) {
    m->part_actual -= n < m->part_actual ? n : m->part_actual;
}

uint64_t mem_auto_budget(uint64_t safety_margin) {
    uint64_t total = 256ULL << 30;
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f)) {
            uint64_t kb;
            if (sscanf(line, "MemTotal: %" SCNu64 " kB", &kb) == 1) {
                total = kb * 1024;
                break;
            }
        }
        fclose(f);
    }
    return total > safety_margin ? total - safety_margin : total / 2;
}
