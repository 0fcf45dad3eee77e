// vfsim_driver.cpp — runs one vector-function program through pto-isa's VfSim (the A5 vector-function
// model of a pto-isa checkout the user provides; tools/timing/calibrate.py builds this file against it and
// never copies it into this repository). C++20, because VfSim's headers are.
//
// Input (stdin), one program, one item per line; '#' starts a comment:
//   value NAME reg|ub|scalar DTYPE     a value (register, UB buffer or scalar) and its element type
//   loop N                             a loop of N iterations, up to the matching `end`
//   end
//   inst OP DSTS SRCS                  an instruction: OP as VfSim spells it (VADD, VLDS, ...), DSTS and
//                                      SRCS comma-separated value names, '-' for none
// Output (stdout): "cycles N" (VfSim's vector-function end cycle), or "unsupported OP FORM" when VfSim has
// no parameters for an instruction's form, or "error: ..." (exit 1).
#include "pto/costmodel/a5/VfSim/ParamDB.h"
#include "pto/costmodel/a5/VfSim/SimulatorRunner.h"
#include "pto/costmodel/a5/VfSim/VfInfo.h"

#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> split_names(const std::string &s)
{
    std::vector<std::string> out;
    if (s == "-") return out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
        if (!item.empty()) out.push_back(item);
    return out;
}

bool supported(const std::vector<vfsim::ProgramNode> &nodes, const vfsim::ParamDB &db, std::string &what)
{
    for (const auto &n : nodes) {
        if (n.kind == vfsim::ProgramNode::Kind::Loop) {
            if (!n.loop || !supported(n.loop->body, db, what)) return false;
            continue;
        }
        if (n.inst.op.empty() || n.inst.form.empty() || !db.hasInst(n.inst.op, n.inst.form)) {
            what = n.inst.op + " " + (n.inst.form.empty() ? std::string("?") : n.inst.form);
            return false;
        }
    }
    return true;
}

}  // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::cerr << "usage: vfsim_driver VFSIM_DIR < program\n";
        return 2;
    }
    vfsim::VfInfo prog;
    prog.defaultDtype = "fp32";
    std::vector<std::vector<vfsim::ProgramNode> *> stack{&prog.body};
    std::vector<std::unique_ptr<vfsim::ProgramLoopNode>> loops;   // open loops (stable addresses)
    std::string line;
    int nloop = 0, lineno = 0;
    while (std::getline(std::cin, line)) {
        lineno++;
        if (auto h = line.find('#'); h != std::string::npos) line.erase(h);
        std::stringstream ss(line);
        std::string kw;
        if (!(ss >> kw)) continue;
        if (kw == "value") {
            std::string name, storage, dtype;
            ss >> name >> storage >> dtype;
            vfsim::ValueInfo v;
            v.valueId = name;
            v.storage = storage == "ub" ? vfsim::ValueStorageKind::UB
                        : storage == "scalar" ? vfsim::ValueStorageKind::Scalar
                                              : vfsim::ValueStorageKind::Register;
            v.dtype = dtype;
            prog.values[name] = v;
        } else if (kw == "loop") {
            std::string n;
            ss >> n;
            auto l = std::make_unique<vfsim::ProgramLoopNode>();
            l->iters = n;
            l->unroll = "1";
            l->name = "loop" + std::to_string(nloop++);
            stack.push_back(&l->body);
            loops.push_back(std::move(l));
            // the loop node is attached to its parent at `end` (its body is complete then)
        } else if (kw == "end") {
            if (loops.empty()) {
                std::cout << "error: line " << lineno << ": end without loop\n";
                return 1;
            }
            vfsim::ProgramLoopNode l = std::move(*loops.back());
            loops.pop_back();
            stack.pop_back();
            stack.back()->push_back(vfsim::ProgramNode::makeLoop(std::move(l)));
        } else if (kw == "inst") {
            std::string op, dsts, srcs;
            ss >> op >> dsts >> srcs;
            vfsim::ProgramInstNode in;
            in.op = op;
            in.dst = split_names(dsts);
            in.src = split_names(srcs);
            stack.back()->push_back(vfsim::ProgramNode::makeInst(std::move(in)));
        } else {
            std::cout << "error: line " << lineno << ": unknown item '" << kw << "'\n";
            return 1;
        }
    }
    if (!loops.empty()) {
        std::cout << "error: a loop without end\n";
        return 1;
    }
    try {
        const vfsim::ParamDB db{std::filesystem::path(argv[1])};
        vfsim::VfInfo canon = prog;
        vfsim::canonicalizeVfInfo(canon);
        std::string what;
        if (!supported(canon.body, db, what)) {
            std::cout << "unsupported " << what << "\n";
            return 0;
        }
        const auto r = vfsim::runVfInfo(prog, db);
        std::cout << "cycles " << r.vfEndCycle << "\n";
    } catch (const std::exception &e) {
        std::cout << "error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
