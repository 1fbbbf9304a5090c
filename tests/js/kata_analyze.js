// Drives `python -m mcgo gtp` through @sabaki/gtp's Controller, the GTP client library
// Sabaki talks to engines with: a streamed kata-analyze (stopped by the next command, as
// Sabaki stops it) and a kata-genmove_analyze, collected by sendCommand's subscriber.
// Prints what it saw as JSON for tests/test_kata_analyze.py.
//
// Usage: NODE_PATH=<folder with @sabaki/gtp> node kata_analyze.js PYTHON [mcgo gtp options]

const {Controller} = require('@sabaki/gtp')

const STOP_AFTER_LINES = 3
const STOP_AFTER_MS = 60000     // stop the analysis anyway after this long

async function main() {
  const [python, ...options] = process.argv.slice(2)
  const controller = new Controller(python, ['-m', 'mcgo', 'gtp', ...options])
  controller.start()
  const report = {}
  try {
    await controller.sendCommand({name: 'boardsize', args: ['9']})
    await controller.sendCommand({name: 'clear_board'})

    const lines = []
    let stopping = null
    const stop = () => {
      if (stopping == null) stopping = controller.sendCommand({name: 'name'})
    }
    const timer = setTimeout(stop, STOP_AFTER_MS)
    const analysis = controller.sendCommand(
      {name: 'kata-analyze', args: ['B', '10', 'ownership', 'true']},
      ({line}) => {
        if (line.startsWith('info ')) lines.push(line)
        if (lines.length >= STOP_AFTER_LINES) stop()
      }
    )
    report.analysis = await analysis
    clearTimeout(timer)
    report.name = await stopping
    report.lines = lines

    const genmoveLines = []
    report.genmove = await controller.sendCommand(
      {name: 'kata-genmove_analyze', args: ['W', '2']},
      ({line}) => genmoveLines.push(line)
    )
    report.genmoveLines = genmoveLines
  } finally {
    await controller.stop()
  }
  console.log(JSON.stringify(report))
}

main().catch(err => {
  console.error(err)
  process.exit(1)
})
