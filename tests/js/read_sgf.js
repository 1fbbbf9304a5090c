// Reads an SGF file with @sabaki/sgf, the parser Sabaki opens files with, and prints the
// main line of its first game as JSON for tests/test_review.py: each node's properties
// (Sabaki's data object: identifier -> list of values) and how many children it has, and
// the first move of each variation beside the main line.
//
// Usage: NODE_PATH=<folder with @sabaki/sgf> node read_sgf.js GAME.sgf

const sgf = require('@sabaki/sgf')

function mainLine(root) {
  const nodes = []
  let node = root
  while (node != null) {
    nodes.push({
      data: node.data,
      children: node.children.length,
      variations: node.children.slice(1).map((child) => child.data),
    })
    node = node.children[0]
  }
  return nodes
}

const [file] = process.argv.slice(2)
const games = sgf.parseFile(file)
console.log(JSON.stringify({games: games.length, nodes: mainLine(games[0])}))
