<?php
/**
 * The stand-in's command loop: runs the online adaptation's Game class on the stand-in
 * framework (framework.php) and answers JSON commands, one per line, from adapter.py.
 *
 *   php worker.php /path/to/bga-heat     (the fetched source; never part of this repository)
 *
 * Commands ({"cmd": ...}):
 *   new      {"players": N, "circuit": OPTION id, "laps": L, "options": {id: value}, "grid": [cId...]}
 *            a fresh database, the adaptation's setupNewGame and its setup states, up to the
 *            first planification; "grid" (constructor ids, pole first) replaces the random
 *            turn order of setupNewGame and the deck shuffles take the queued orders.
 *   sql      {"statements": [...]}   write rows (the adapter's load), then reload the caches
 *   goto     {"state": id, "active": pId, "multiactive": [...]}   set the state machine (no action run)
 *   call     {"player": pId, "method": name, "args": [...], "try": bool}
 *            call a player action (or a state action with player 0); "try" rolls everything back
 *   orders   {"orders": [[card ids, top first], ...]}   the next shuffles' outcomes, in order
 *   dump     the tables the adapter reads, the state machine, and the current state's args
 */

declare(strict_types=1);

$src = $argv[1] ?? getenv('BGA_HEAT_SRC');
if (!$src || !is_dir("$src/modules/php")) {
    fwrite(STDERR, "worker.php: give the fetched bga-heat source folder (BGA_HEAT_SRC)\n");
    exit(2);
}
$src = realpath($src);
chdir($src);
require __DIR__ . '/framework.php';

/** Raised by the shuffle hook when the harness has not given this shuffle's outcome. */
final class StandinNeedShuffle extends \Exception
{
    public array $at = [];

    public function __construct(public array $ids, public string $location)
    {
        parent::__construct('shuffle outcome needed');
    }
}

final class StandinShuffle
{
    /** @var array<int, array<int>> queued outcomes: each a list of ids, top of the deck first */
    public static array $orders = [];
    public static bool $identity = false;

    /**
     * Order $a (card ids of one location) as the queued outcome for that location says:
     * {"location": "deck-0", "types": [card types, top of the deck first]}.
     */
    public static function apply(array &$a): void
    {
        if (self::$identity || count($a) <= 1) {
            return;
        }
        $ids = array_map('intval', $a);
        $rows = StandinDb::rows('SELECT card_id, card_location, type FROM cards WHERE card_id IN (' . implode(',', $ids) . ')');
        $loc = $rows[0]['card_location'] ?? '';
        $byType = [];
        // 106 (the car's own Heat card) and 111 (a Heat card) are both a Heat card to the harness
        $norm = fn($t) => ((int) $t == 106) ? 111 : (int) $t;
        foreach ($rows as $r) $byType[$norm($r['type'])][] = (int) $r['card_id'];
        foreach (self::$orders as $k => $order) {
            if ($order['location'] !== $loc) continue;
            $s1 = array_map($norm, $order['types']); $s2 = array_map(fn($r) => $norm($r['type']), $rows);
            sort($s1); sort($s2);
            if ($s1 != $s2) continue;
            unset(self::$orders[$k]);
            self::$orders = array_values(self::$orders);
            $top = [];
            foreach ($order['types'] as $t) $top[] = array_shift($byType[$norm($t)]);
            // Pieces::shuffle gives the i-th id card_state i; the top of a deck is the highest state.
            $a = array_reverse($top);
            return;
        }
        $e = new StandinNeedShuffle($ids, $loc);
        // what the tables hold at this moment (the pile to reshuffle is in the deck already),
        // the notifications so far and the functions on the stack: the chance point's state
        $e->at = standin_dump(\Bga\Games\Heat\Game::get(), false);
        $e->at['events'] = StandinNotifications::$events;
        $e->at['stack'] = array_values(array_filter(array_map(fn($f) => $f['function'] ?? '', debug_backtrace(DEBUG_BACKTRACE_IGNORE_ARGS))));
        throw $e;
    }
}

$GLOBALS['standin_grid'] = null;

spl_autoload_register(function ($class) use ($src) {
    $prefix = 'Bga\\Games\\Heat\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) return;
    $rel = str_replace('\\', '/', substr($class, strlen($prefix)));
    $file = "$src/modules/php/$rel.php";
    if (is_file($file)) require $file;
});

require_once "$src/modules/php/constants.inc.php";
require "$src/gameinfos.inc.php";
require_once "$src/states.inc.php";
$GLOBALS['gameinfos'] = $gameinfos;
$GLOBALS['machinestates'] = $machinestates;

// The shuffle hook: an unqualified shuffle() inside these namespaces resolves here first.
eval('namespace Bga\\Games\\Heat\\Helpers; function shuffle(array &$a): bool { \\StandinShuffle::apply($a); return true; }');
eval('namespace Bga\\Games\\Heat\\Managers; function shuffle(array &$a): bool { \\StandinShuffle::apply($a); return true; }');
// setupNewGame's random turn order: the grid the harness gives.
eval('namespace Bga\\Games\\Heat\\States; function shuffle(array &$a): bool { if ($GLOBALS["standin_grid"] !== null) { $a = $GLOBALS["standin_grid"]; } return true; }');

const STANDIN_FRAMEWORK_TABLES = <<<SQL
CREATE TABLE IF NOT EXISTS `player` (
  `player_id` int(10) NOT NULL,
  `player_no` int(10),
  `player_name` varchar(32) NOT NULL DEFAULT '',
  `player_color` varchar(6) NOT NULL DEFAULT '',
  `player_score` int(10) NOT NULL DEFAULT 0,
  `player_score_aux` int(10) NOT NULL DEFAULT 0,
  `player_zombie` int(1) NOT NULL DEFAULT 0,
  `player_eliminated` int(1) NOT NULL DEFAULT 0,
  PRIMARY KEY (`player_id`)
) ENGINE=InnoDB;
CREATE TABLE IF NOT EXISTS `global` (
  `global_id` int(10) NOT NULL,
  `global_value` int(10),
  PRIMARY KEY (`global_id`)
) ENGINE=InnoDB;
CREATE TABLE IF NOT EXISTS `stats` (
  `stats_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `stats_type` int(5) NOT NULL,
  `stats_player_id` int(10),
  `stats_value` float NOT NULL,
  PRIMARY KEY (`stats_id`)
) ENGINE=InnoDB;
CREATE TABLE IF NOT EXISTS `gamelog` (
  `gamelog_packet_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
  `gamelog_move_id` int(10),
  `gamelog_notification` text,
  PRIMARY KEY (`gamelog_packet_id`)
) ENGINE=InnoDB;
SQL;

function standin_reload(): \Bga\Games\Heat\Game
{
    \Bga\Games\Heat\Managers\Constructors::invalidate();
    \Bga\Games\Heat\Core\Stats::invalidate();
    // Each command is a new request: the globals are read again from the database,
    (new \ReflectionProperty(\Bga\Games\Heat\Core\Globals::class, 'data'))->setValue(null, []);
    // and the per-request counter to the framework: the per-request counter starts at 0.
    (new \ReflectionProperty(\Bga\Games\Heat\Core\Globals::class, 'recursionPrevention'))->setValue(null, 0);
    $g = new \Bga\Games\Heat\Game();
    return $g;
}

function standin_new(array $req)
{
    global $src;
    StandinDb::open();
    StandinDb::createSchema(STANDIN_FRAMEWORK_TABLES);
    StandinDb::createSchema(file_get_contents("$src/dbmodel.sql"));
    StandinDb::exec('INSERT INTO global (global_id, global_value) VALUES (3, 1)');
    StandinStatesHolder::$gamestate = null;
    StandinNotifications::$events = [];
    StandinDb::$cellsBeforeRank = [];
    $n = (int) $req['players'];
    $players = [];
    for ($i = 1; $i <= $n; $i++) {
        $players[1000 + $i] = ['player_name' => "P$i", 'player_canal' => '', 'player_avatar' => ''];
    }
    $O = fn($name) => constant("Bga\\Games\\Heat\\$name");
    $options = [
        $O('OPTION_SETUP') => $O('OPTION_SETUP_STANDARD'),
        $O('OPTION_CIRCUIT') => (int) $req['circuit'],
        $O('OPTION_NBR_LAPS') => (int) $req['laps'],
        $O('OPTION_GARAGE_MODULE') => $O('OPTION_DISABLED'),
        $O('OPTION_GARAGE_CHOICE') => $O('OPTION_GARAGE_RANDOM'),
        $O('OPTION_WEATHER_MODULE') => $O('OPTION_DISABLED'),
        $O('OPTION_LEGEND') => 0,
        $O('OPTION_LEGEND_PRO') => 0,
        $O('OPTION_AGGRESSIVE_LEGENDS') => 0,
        $O('OPTION_TB_MODE') => $O('OPTION_TB_STANDARD'),
        $O('OPTION_MULLIGAN') => $O('OPTION_DISABLED'),
        $O('OPTION_EXPANSION_HEAVY_RAIN') => 0,
        $O('OPTION_EXPANSION_TUNNEL_VISION') => 0,
    ];
    foreach ($req['options'] ?? [] as $k => $v) {
        $options[(int) $k] = $v;
    }
    $GLOBALS['standin_grid'] = $req['grid'] ?? null;
    $game = standin_reload();
    $first = (function () use ($players, $options) { return $this->setupNewGame($players, $options); })->call($game);
    $p = 1;
    foreach (array_keys($players) as $pId) {
        StandinDb::exec("UPDATE player SET player_no = $p WHERE player_id = $pId");
        $p++;
    }
    $game = standin_reload();
    StandinShuffle::$identity = !empty($req['identity_shuffles']);
    $game->gamestate->jumpToState($first);
    StandinShuffle::$identity = false;
    return $game;
}

function standin_dump(\Bga\Games\Heat\Game $game, bool $withArgs = true): array
{
    $gs = $game->gamestate;
    $st = $gs->state();
    $args = null;
    if ($withArgs && isset($st['args'])) {
        $m = $st['args'];
        try {
            $args = $game->$m();
        } catch (\Throwable $e) {
            $args = ['_error' => get_class($e) . ': ' . $e->getMessage()];
        }
    }
    return [
        'state' => ['id' => $gs->current, 'name' => $st['name'] ?? '', 'active' => $gs->activePlayer, 'multiactive' => $gs->multiactive],
        'constructors' => StandinDb::rows('SELECT * FROM constructors ORDER BY id'),
        'cards' => StandinDb::rows('SELECT * FROM cards ORDER BY card_id'),
        'globals' => array_map(fn($r) => json_decode(stripslashes((string) $r['value']), true), array_column(StandinDb::rows('SELECT name, value FROM global_variables'), null, 'name')),
        'args' => $args,
        'cells_before_rank' => (object) StandinDb::$cellsBeforeRank,
    ];
}

function standin_error(\Throwable $e): array
{
    $kind = 'system';
    if ($e instanceof StandinNeedShuffle) $kind = 'need-shuffle';
    elseif ($e instanceof \BgaUserException) $kind = 'user';
    elseif ($e instanceof \BgaVisibleSystemException) $kind = 'visible';
    $out = ['kind' => $kind, 'class' => get_class($e), 'message' => $e->getMessage()];
    if ($kind == 'system') {
        $out['where'] = $e->getFile() . ':' . $e->getLine();
        $out['trace'] = array_slice(explode("\n", $e->getTraceAsString()), 0, 8);
    }
    if ($e instanceof StandinNeedShuffle) { $out['ids'] = $e->ids; $out['location'] = $e->location; $out['at'] = $e->at; }
    return $out;
}

$game = null;
$stdin = fopen('php://stdin', 'r');
while (($line = fgets($stdin)) !== false) {
    $line = trim($line);
    if ($line === '') continue;
    $req = json_decode($line, true);
    $reply = ['ok' => true];
    try {
        switch ($req['cmd'] ?? '') {
            case 'new':
                StandinShuffle::$orders = $req['orders'] ?? [];
                $game = standin_new($req);
                $reply['events'] = StandinNotifications::$events;
                break;
            case 'snapshot':
                // keep a copy of every table (the setup of this track and number of cars)
                StandinDb::$pdo->exec("ATTACH DATABASE ':memory:' AS snap");
                foreach (StandinDb::rows("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") as $t) {
                    StandinDb::$pdo->exec("CREATE TABLE snap.`{$t['name']}` AS SELECT * FROM main.`{$t['name']}`");
                }
                $reply['state'] = [$game->gamestate->current, $game->gamestate->activePlayer, $game->gamestate->multiactive];
                break;
            case 'restore':
                foreach (StandinDb::rows("SELECT name FROM snap.sqlite_master WHERE type = 'table'") as $t) {
                    StandinDb::$pdo->exec("DELETE FROM main.`{$t['name']}`");
                    StandinDb::$pdo->exec("INSERT INTO main.`{$t['name']}` SELECT * FROM snap.`{$t['name']}`");
                }
                StandinNotifications::$events = [];
                StandinDb::$cellsBeforeRank = [];
                $game = standin_reload();
                break;
            case 'sql':
                foreach ($req['statements'] as $s) StandinDb::exec($s);
                $game = standin_reload();
                break;
            case 'goto':
                $game->gamestate->current = (int) $req['state'];
                $game->gamestate->activePlayer = (int) ($req['active'] ?? 0);
                $game->gamestate->multiactive = array_map('intval', $req['multiactive'] ?? []);
                break;
            case 'orders':
                StandinShuffle::$orders = $req['orders'];
                break;
            case 'call':
                // a player action is a new request to the framework: its per-request counter starts at 0
                (new \ReflectionProperty(\Bga\Games\Heat\Core\Globals::class, 'recursionPrevention'))->setValue(null, 0);
                $try = !empty($req['try']);
                $saved = [$game->gamestate->current, $game->gamestate->activePlayer, $game->gamestate->multiactive, StandinShuffle::$orders];
                StandinDb::$pdo->exec('SAVEPOINT standin_call');
                StandinNotifications::$events = [];
                \Bga\GameFramework\Table::$currentPlayerId = (int) ($req['player'] ?? 0);
                $m = $req['method'];
                try {
                    (function () use ($m, $req) { return $this->$m(...($req['args'] ?? [])); })->call($game);
                    $reply['events'] = StandinNotifications::$events;
                    if ($try) throw new \RuntimeException('__rollback__');
                    StandinDb::$pdo->exec('RELEASE standin_call');
                } catch (\Throwable $e) {
                    StandinDb::$pdo->exec('ROLLBACK TO standin_call');
                    StandinDb::$pdo->exec('RELEASE standin_call');
                    [$game->gamestate->current, $game->gamestate->activePlayer, $game->gamestate->multiactive, StandinShuffle::$orders] = $saved;
                    $game = standin_reload();
                    if ($e->getMessage() !== '__rollback__') {
                        $reply['ok'] = false;
                        $reply['error'] = standin_error($e);
                        $reply['events'] = StandinNotifications::$events;
                    }
                }
                break;
            case 'dump':
                $reply['dump'] = standin_dump($game);
                break;
            case 'stop':
                echo json_encode($reply), "\n";
                exit(0);
            default:
                $reply = ['ok' => false, 'error' => ['kind' => 'protocol', 'message' => 'unknown cmd']];
        }
    } catch (\Throwable $e) {
        $reply = ['ok' => false, 'error' => standin_error($e)];
    }
    echo json_encode($reply, JSON_PARTIAL_OUTPUT_ON_ERROR), "\n";
    fflush(STDOUT);
}
