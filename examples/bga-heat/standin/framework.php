<?php
/**
 * A small local stand-in for the parts of the Board Game Arena framework that the online
 * adaptation of Heat (bga-devs/bga-heat, modules/php) calls. Written for heatcore's
 * conformance example; no code of the framework or of the adaptation is copied here.
 *
 * What it stands in for, and nothing more:
 *  - the database: the adaptation's own dbmodel.sql, run on SQLite in memory through PDO;
 *    MySQL string literals are re-quoted for SQLite, nothing else of a query is changed;
 *  - the game state machine: the adaptation's own states.inc.php, entered and left as the
 *    framework does (a state's 'action' runs when the state is entered);
 *  - notifications: captured in order as events, never sent anywhere;
 *  - the player context (current and active player), statistics labels, user preferences
 *    (always the framework default, except the "move automatically when there is a single
 *    speed choice" option, which is on so a turn runs like a player who takes it);
 *  - the shuffle: PHP's shuffle() inside the adaptation's Helpers namespace asks a hook
 *    instead (see worker.php), so every chance outcome comes from the conformance harness.
 *
 * Every rule of the game lives in the adaptation's code, which is loaded unchanged.
 */

declare(strict_types=1);

namespace {

    function clienttranslate($s) { return $s; }
    function totranslate($s) { return $s; }


    /** MySQL's escaping (backslashes); StandinDb::mysqlToSqlite reads it back. */
    function mysql_escape_string($s): string { return addslashes((string) $s); }

    function bga_rand(int $min, int $max): int { return mt_rand($min, $max); }

    class feException extends \Exception {}
    class BgaSystemException extends \Exception {}
    class BgaVisibleSystemException extends \Exception {}
    class BgaUserException extends \Exception {}

    /** The database stand-in: one SQLite database in memory. */
    final class StandinDb
    {
        public static ?\PDO $pdo = null;
        public static int $lastInsertFirstId = 0;
        public static int $affected = 0;
        public static array $queries = [];

        public static function open(): void
        {
            self::$pdo = new \PDO('sqlite::memory:');
            self::$pdo->setAttribute(\PDO::ATTR_ERRMODE, \PDO::ERRMODE_EXCEPTION);
            self::$pdo->setAttribute(\PDO::ATTR_STRINGIFY_FETCHES, true);
            self::$pdo->setAttribute(\PDO::ATTR_DEFAULT_FETCH_MODE, \PDO::FETCH_ASSOC);
        }

        /** Rewrite MySQL string literals ('it\'s', "\\") as SQLite ones ('it''s'); drop LIMIT from UPDATE/DELETE. */
        public static function mysqlToSqlite(string $sql): string
        {
            $out = '';
            $n = strlen($sql);
            for ($i = 0; $i < $n; $i++) {
                $c = $sql[$i];
                if ($c !== "'") {
                    $out .= $c;
                    continue;
                }
                $lit = '';
                $i++;
                while ($i < $n) {
                    $d = $sql[$i];
                    if ($d === '\\' && $i + 1 < $n) {
                        $e = $sql[$i + 1];
                        $map = ['n' => "\n", 'r' => "\r", 't' => "\t", '0' => "\0", 'Z' => "\x1a"];
                        $lit .= $map[$e] ?? $e;
                        $i += 2;
                        continue;
                    }
                    if ($d === "'") {
                        if ($i + 1 < $n && $sql[$i + 1] === "'") {
                            $lit .= "'";
                            $i += 2;
                            continue;
                        }
                        break;
                    }
                    $lit .= $d;
                    $i++;
                }
                $out .= "'" . str_replace("'", "''", $lit) . "'";
            }
            return $out;
        }

        /** Where each car stood when the adaptation replaced its cell by its rank (read-only record). */
        public static array $cellsBeforeRank = [];

        public static function exec(string $sql): void
        {
            $sql = self::mysqlToSqlite($sql);
            if (preg_match("/^UPDATE `constructors` SET `car_cell` = '-\\d+'\\s+WHERE\\s+`id` = '?(\\d+)'?/", $sql, $m)) {
                $row = self::$pdo->query("SELECT car_cell, turn FROM constructors WHERE id = {$m[1]}")->fetch();
                if ($row && (int) $row['car_cell'] >= 0) {
                    self::$cellsBeforeRank[(int) $m[1]] = [(int) $row['car_cell'], (int) $row['turn']];
                }
            }
            $st = self::$pdo->prepare($sql);
            $st->execute();
            self::$affected = $st->rowCount();
            if (preg_match('/^\s*(INSERT|REPLACE)\b/i', $sql)) {
                $last = (int) self::$pdo->lastInsertId();
                // MySQL's LAST_INSERT_ID() is the id of the FIRST row of a multi-row insert.
                $rows = max(1, self::$affected);
                self::$lastInsertFirstId = $last - $rows + 1;
            }
        }

        public static function rows(string $sql): array
        {
            if (preg_match('/^\s*SELECT\s+LAST_INSERT_ID\(\)\s*$/i', $sql)) {
                return [['LAST_INSERT_ID()' => (string) self::$lastInsertFirstId]];
            }
            $sql = self::mysqlToSqlite($sql);
            $st = self::$pdo->query($sql);
            return $st->fetchAll();
        }

        /** Create the tables of a MySQL dbmodel.sql on SQLite. */
        public static function createSchema(string $mysql): void
        {
            $mysql = preg_replace('/--[^\n]*\n/', "\n", $mysql);
            foreach (explode(';', $mysql) as $stmt) {
                if (!preg_match('/CREATE TABLE/i', $stmt)) {
                    continue;
                }
                $stmt = preg_replace('/\)\s*ENGINE=[^;]*$/s', ')', $stmt);
                $auto = null;
                if (preg_match('/`(\w+)`[^,\n]*AUTO_INCREMENT/i', $stmt, $m)) {
                    $auto = $m[1];
                    $stmt = preg_replace('/`' . $auto . '`[^,\n]*AUTO_INCREMENT/i', '`' . $auto . '` INTEGER PRIMARY KEY AUTOINCREMENT', $stmt);
                    $stmt = preg_replace('/,\s*PRIMARY KEY\s*\(`' . $auto . '`\)/i', '', $stmt);
                }
                $stmt = preg_replace('/\bunsigned\b/i', '', $stmt);
                self::$pdo->exec($stmt);
            }
        }
    }

    class APP_Object {}

    class APP_DbObject extends APP_Object
    {
        public static function DbQuery($sql): void { StandinDb::exec((string) $sql); }
        public static function DbAffectedRow(): int { return StandinDb::$affected; }
        public static function DbGetLastId(): int { return (int) StandinDb::$pdo->lastInsertId(); }
        public static function getObjectListFromDB($sql, $bUniqueValue = false): array
        {
            $rows = StandinDb::rows((string) $sql);
            return $bUniqueValue ? array_map(fn($r) => reset($r), $rows) : $rows;
        }
        public static function getCollectionFromDB($sql, $bSingleValue = false): array
        {
            $out = [];
            foreach (StandinDb::rows((string) $sql) as $r) {
                $k = reset($r);
                $out[$k] = $bSingleValue ? next($r) : $r;
            }
            return $out;
        }
        public static function getUniqueValueFromDB($sql)
        {
            $rows = StandinDb::rows((string) $sql);
            if (count($rows) == 0) return null;
            return reset($rows[0]);
        }
        public static function getObjectFromDB($sql): ?array
        {
            $rows = StandinDb::rows((string) $sql);
            return $rows[0] ?? null;
        }
        public static function escapeStringForDB($s): string { return addslashes((string) $s); }
    }

    class APP_GameClass extends APP_DbObject {}

    /** A notification captured instead of being sent. */
    final class StandinNotifications
    {
        public static array $events = [];
    }

    /** The state machine: the adaptation's $machinestates, entered as the framework does. */
    class StandinGameState
    {
        public array $states;
        public int $current = 1;
        public int $activePlayer = 0;
        public array $multiactive = [];
        public $table;

        public function __construct(array $states, $table)
        {
            $this->states = $states;
            $this->table = $table;
        }

        public function state(): array
        {
            $s = $this->states[$this->current];
            $s['id'] = $this->current;
            return $s;
        }

        public function getCurrentMainStateId(): int { return $this->current; }
        public function state_id(): int { return $this->current; }

        public function jumpToState($id): void
        {
            $id = (int) $id;
            if (!isset($this->states[$id])) {
                throw new \BgaSystemException("stand-in: unknown state $id");
            }
            $this->current = $id;
            $st = $this->states[$id];
            if (($st['type'] ?? '') == 'multipleactiveplayer') {
                // the framework leaves the multiactive list as it was set
            }
            if (isset($st['action'])) {
                $m = $st['action'];
                $this->table->$m();
            }
        }

        public function nextState($transition = ''): void
        {
            $st = $this->states[$this->current];
            $tr = $st['transitions'] ?? [];
            if (isset($tr[$transition])) {
                $this->jumpToState($tr[$transition]);
            } elseif (count($tr) == 1) {
                $this->jumpToState(reset($tr));
            } else {
                throw new \BgaSystemException("stand-in: no transition '$transition' from state {$this->current}");
            }
        }

        public function setPlayersMultiactive($players, $nextState, $bExclusive = false): bool
        {
            $players = array_map('intval', $players);
            $this->multiactive = $bExclusive ? $players : array_values(array_unique(array_merge($this->multiactive, $players)));
            if (empty($this->multiactive)) {
                $this->nextState($nextState);
                return true;
            }
            return false;
        }

        public function setAllPlayersMultiactive(): void
        {
            $this->multiactive = array_map('intval', array_keys($this->table->loadPlayersBasicInfos()));
        }

        public function setPlayerNonMultiactive($player, $nextState): bool
        {
            $this->multiactive = array_values(array_diff($this->multiactive, [(int) $player]));
            if (empty($this->multiactive)) {
                $this->nextState($nextState);
                return true;
            }
            return false;
        }

        public function getActivePlayerList(): array { return $this->multiactive; }

        public function changeActivePlayer($pId): void { $this->activePlayer = (int) $pId; }

        public function checkPossibleAction($action): void
        {
            if (!in_array($action, $this->states[$this->current]['possibleactions'] ?? [])) {
                throw new \BgaSystemException("stand-in: action $action not possible in state {$this->current}");
            }
        }

        public function isMutiactiveState(): bool { return ($this->states[$this->current]['type'] ?? '') == 'multipleactiveplayer'; }
    }

    /** User preferences: the framework default, except auto-move on a single speed choice. */
    final class StandinPreferences
    {
        public function get($pId, $prefId)
        {
            return 1;
        }
    }
}

namespace Bga\GameFramework {

    class UserException extends \BgaUserException {}
    class VisibleSystemException extends \BgaVisibleSystemException {}
    class SystemException extends \BgaSystemException {}

    class GameStateBuilder {}

    abstract class Table extends \APP_GameClass
    {
        public $gamestate;
        public $userPreferences;
        public $bSelectGlobalsForUpdate = false;
        protected array $gameStateLabels = [];
        protected array $gameStateValues = [];
        public static int $currentPlayerId = 0;

        public function __construct()
        {
            global $machinestates;
            $states = $machinestates;
            $states[1] = $states[1] ?? ['name' => 'gameSetup', 'type' => 'manager', 'transitions' => ['' => 2]];
            $states[99] = $states[99] ?? ['name' => 'gameEnd', 'type' => 'manager', 'description' => 'End of game'];
            $this->gamestate = \StandinStatesHolder::$gamestate ?? new \StandinGameState($states, $this);
            $this->gamestate->table = $this;
            \StandinStatesHolder::$gamestate = $this->gamestate;
            $this->userPreferences = new \StandinPreferences();
        }

        protected function initGameStateLabels(array $labels): void
        {
            $this->gameStateLabels = $labels + $this->gameStateLabels;
        }

        public function setGameStateInitialValue($label, $value): void { $this->setGameStateValue($label, $value); }

        public function setGameStateValue($label, $value): void
        {
            $id = $this->gameStateLabels[$label];
            \StandinDb::exec("REPLACE INTO global (global_id, global_value) VALUES ($id, " . (int) $value . ")");
        }

        public function getGameStateValue($label, $default = null)
        {
            $id = $this->gameStateLabels[$label] ?? null;
            if ($id === null) return $default;
            $v = self::getUniqueValueFromDB("SELECT global_value FROM global WHERE global_id = $id");
            return $v === null ? $default : (int) $v;
        }

        public function incGameStateValue($label, $inc) { $this->setGameStateValue($label, $this->getGameStateValue($label, 0) + $inc); }

        public function getGameinfos(): array
        {
            global $gameinfos;
            return $gameinfos;
        }

        public function loadPlayersBasicInfos(): array
        {
            $out = [];
            foreach (self::getObjectListFromDB('SELECT player_id, player_no, player_name, player_color FROM player ORDER BY player_no') as $r) {
                $out[(int) $r['player_id']] = $r;
            }
            return $out;
        }

        public function reloadPlayersBasicInfos(): void {}

        public function reattributeColorsBasedOnPreferences($players, $colors): void {}

        public function activeNextPlayer(): void
        {
            $ids = array_keys($this->loadPlayersBasicInfos());
            $this->gamestate->activePlayer = $ids[0] ?? 0;
        }

        public function getActivePlayerId() { return $this->gamestate->activePlayer; }
        public function getActivePlayerName() { return 'player' . $this->gamestate->activePlayer; }
        protected function getCurrentPlayerId($bReturnNullIfNotLogged = false) { return self::$currentPlayerId; }
        protected function getCurrentPlayerName($b = false) { return 'player' . self::$currentPlayerId; }
        public function giveExtraTime($pId, $time = null): void {}
        public function getBgaEnvironment(): string { return 'studio'; }
        public function notifyAllPlayers($name, $msg, $args): void
        {
            \StandinNotifications::$events[] = ['name' => $name, 'args' => $args];
        }
        public function notifyPlayer($pId, $name, $msg, $args): void
        {
            \StandinNotifications::$events[] = ['name' => $name, 'player' => (int) $pId, 'args' => $args];
        }
        public function checkAction($action, $bThrowException = true)
        {
            $st = $this->gamestate->states[$this->gamestate->current];
            if (!in_array($action, $st['possibleactions'] ?? [])) {
                if ($bThrowException) {
                    throw new \BgaSystemException("stand-in: action $action not possible in state " . ($st['name'] ?? '?'));
                }
                return false;
            }
            return true;
        }
        public function getNextPlayerTable(): array
        {
            $ids = array_keys($this->loadPlayersBasicInfos());
            $t = [];
            foreach ($ids as $i => $id) $t[$id] = $ids[($i + 1) % count($ids)];
            $t[0] = $ids[0] ?? 0;
            return $t;
        }
        public function getPrevPlayerTable(): array
        {
            $ids = array_keys($this->loadPlayersBasicInfos());
            $t = [];
            foreach ($ids as $i => $id) $t[$id] = $ids[($i - 1 + count($ids)) % count($ids)];
            return $t;
        }
        public function getPlayersNumber(): int { return count($this->loadPlayersBasicInfos()); }
        public function eliminatePlayer($pId): void {}
        public function applyDbUpgradeToAllDB($sql): void {}
        public function undoSavepoint(): void {}
        public function initStat($type, $name, $value, $pId = null): void {}
        public function setStat($value, $name, $pId = null, $bDoNotSendNotif = false): void {}
        public function incStat($delta, $name, $pId = null): void {}
        public function getStat($name, $pId = null) { return 0; }
        public function getUniqueIntValueFromDB($sql) { return (int) self::getUniqueValueFromDB($sql); }
    }
}

namespace Bga\GameFramework\Actions {
    #[\Attribute]
    class CheckAction { public function __construct(public bool $enabled = true) {} }
    #[\Attribute]
    class Debug { public function __construct(...$a) {} }
}

namespace Bga\GameFramework\Actions\Types {
    #[\Attribute]
    class JsonParam { public function __construct(...$a) {} }
    #[\Attribute]
    class IntParam { public function __construct(...$a) {} }
    #[\Attribute]
    class IntArrayParam { public function __construct(...$a) {} }
    #[\Attribute]
    class StringParam { public function __construct(...$a) {} }
}

namespace {
    final class StandinStatesHolder
    {
        public static ?\StandinGameState $gamestate = null;
    }
}
