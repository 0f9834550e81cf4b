// Build-time bytecode compiler, run by sitebuild/bytecode.py with Node:
//   node sitebuild/bytecode.mjs PYODIDE_DIR JOBS.json
// JOBS.json: [{input, output, optimize, classDocs}, ...]. For each job, every `.py` member of the zip at
// `input` is compiled by the Python inside the pinned Pyodide (so the bytecode's magic number is
// exactly the browser's) and written to `output` as a sourceless `.pyc` (hash-based, unchecked),
// other members unchanged and in the same order. Compiling at build time spares a phone the
// compilation of every module at each engine start. Line-number tables are left out (40% of a
// .pyc): with them the compiled files were 1.5x the zipped sources, without them about the same
// size; the engine's errors reach players as sentences, and line numbers are for CPython's tests.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, jobsFile] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: path.resolve(pyodideDir) + path.sep });
const compileZip = pyodide.runPython(`
import importlib._bootstrap_external as _external
import importlib.util
import ast
import io
import zipfile


def without_lines(code):
    consts = tuple(without_lines(c) if isinstance(c, type(code)) else c for c in code.co_consts)
    return code.replace(co_linetable=b"", co_consts=consts)


def with_class_docs(body, name):
    """The module's syntax tree with each class's docstring kept as its first line, assigned to
    __doc__ (optimize=2 drops a docstring, not an assignment): a dataclass without a __doc__
    makes one from inspect.signature as it is created, at every engine start."""
    tree = ast.parse(body, name)
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef) or not node.body:
            continue
        first = node.body[0]
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
            line = (first.value.value.strip().splitlines() or [node.name])[0]
            doc = ast.Assign(targets=[ast.Name("__doc__", ast.Store())], value=ast.Constant(line))
            node.body[0] = ast.copy_location(doc, first)
    return ast.fix_missing_locations(tree)


def compile_zip(data, optimize, class_docs):
    data = bytes(data.to_py())
    source = zipfile.ZipFile(io.BytesIO(data))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for info in source.infolist():
            body = source.read(info)
            name = info.filename
            if name.endswith(".py"):
                tree = with_class_docs(body, name) if class_docs else body
                code = without_lines(compile(tree, name, "exec", dont_inherit=True, optimize=optimize))
                body = bytes(_external._code_to_hash_pyc(code, importlib.util.source_hash(body), False))
                name += "c"
            entry = zipfile.ZipInfo(name, date_time=info.date_time)
            entry.compress_type = zipfile.ZIP_DEFLATED
            # The archive's level 9 applies to a name, not to a ZipInfo: said here, or it is 6 (the
            # standard library 13 kB smaller, on the link before the WebAssembly on a first visit).
            entry.compress_level = 9
            entry.external_attr = info.external_attr
            out.writestr(entry, body)
    return buffer.getvalue()


compile_zip
`);
// Every job is tried: one that does not compile is reported (and the exit code is 1) while the
// others are still written, so their results are cached.
let failed = 0;
for (const job of JSON.parse(fs.readFileSync(jobsFile, "utf-8"))) {
  try {
    const result = compileZip(new Uint8Array(fs.readFileSync(job.input)), job.optimize, Boolean(job.classDocs));
    fs.writeFileSync(job.output, result.toJs());
    result.destroy();
  } catch (error) {
    failed += 1;
    console.error(`${job.input}: ${error.message}`);
  }
}
process.exitCode = failed ? 1 : 0;
