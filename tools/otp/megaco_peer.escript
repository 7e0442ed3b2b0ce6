#!/usr/bin/env escript
%% -*- erlang -*-
%%! -noshell
%% A real Megaco peer built on Erlang/OTP's own megaco application (its
%% user API, the megaco_udp and megaco_tcp transports and its encoders),
%% for end-to-end tests of `megaco proxy` (internal/proxy/otpe2e).
%%
%% usage:
%%   megaco_peer.escript mgc|mg [OPTION...]
%%     --transport udp|tcp        (udp)
%%     --encoding pretty|compact|ber   (compact)
%%     --version 1|2|3            protocol version of the peer (1)
%%     --local-port P             UDP: the port to bind; TCP MGC: the port to
%%                                listen on; TCP MG: only the MG's MId port.
%%                                Required.
%%     --remote-port Q            MG: the port of its controller (the MGC, or
%%                                the proxy's MG side). MGC: not needed (it
%%                                answers whoever registers); when given and
%%                                the transport is UDP, the MG's registration
%%                                must come from this port.
%%     --remote-host H            (127.0.0.1)
%%     --local-host H             the address to bind and to put in the
%%                                peer's own mId (127.0.0.1)
%%     --encoding per             also: OTP's PER encoder
%%     --strict                   behave as a production peer does: the MGC
%%                                authenticates the MG by its mId (mId IP ==
%%                                source IP) and, over UDP, sends everything
%%                                after the registration to the mId's IP and
%%                                the ServiceChangeAddress port (RFC 3525
%%                                7.2.8), not to where the datagram came from;
%%                                the MG checks its controller's mId IP
%%                                against the address it talks to and follows
%%                                the ServiceChangeAddress and MgcIdToTry it is
%%                                given; both check that every message of the
%%                                other carries the mId it registered with
%%     --sc-method M              MGC: the ServiceChangeMethod the
%%                                registration must carry (restart)
%%     --then reregister|handoff  MG: after its calls, re-register (print
%%                                WAITING, read a line from stdin, send a
%%                                ServiceChange Method=Disconnected) or wait
%%                                for its MGC to hand it off (ServiceChange
%%                                Method=Handoff with MgcIdToTry, then a
%%                                ServiceChange Method=Handoff to that MGC);
%%                                then the same calls again, driven by the
%%                                MGC it registered with
%%     --handoff-to H:P           MGC: after its calls, hand the MG off to
%%                                the MGC at H:P (MgcIdToTry)
%%     --first-tid N              the first transaction ID this peer uses
%%     --calls N                  calls the MGC drives after registration (1)
%%     --timeout S                give up after S seconds (30)
%%     --segment                  v3: send every reply in segments; each
%%                                must get a SegmentReply. For a text peer:
%%                                OTP 25's BER encoder does not segment.
%%     --delay-reply STEP:MS      answer the request STEP (one of the steps
%%                                below: modify_events, add, ...) MS ms late,
%%                                so that a UDP peer retransmits it and OTP
%%                                answers the copy with TransactionPending
%%
%% The MG registers (ServiceChange Restart on ROOT to its controller), the
%% MGC replies, then the MGC drives the RFC 3525 Appendix A.1 call once per
%% --calls (corpus/appendix-a/corrected, termination IDs in OTP's default
%% [8,8,8] binary layout: A4444 = 00000001/00000000/00000001, A4445 =
%% 00000010/00000000/00000001, context 2000):
%%   MGC -> MG  Modify A4444, Media LocalControl + Events 2222 {al/of}
%%   MG -> MGC  Notify A4444, ObservedEvents 2222 {al/of}  (reply asks for
%%              a TransactionResponseAck: the MG must send it)
%%   MGC -> MG  Modify A4444, Events 2223 {al/on, dd/ce {DigitMap=
%%              dialplan00}}, Signals {cg/dt}, DigitMap dialplan00 {...}
%%   MG -> MGC  Notify A4444, ObservedEvents 2223 {dd/ce {ds, Meth}}
%%   MGC -> MG  Add A4444 and Add $ with Local SDP, in context $
%%   MGC -> MG  Modify A4444 Signals {cg/rt}, Modify A4445 Remote SDP
%%   MGC -> MG  Subtract A4444 and A4445 with Audit {Statistics} (reply asks
%%              for a TransactionResponseAck: the MGC must send it)
%% and last, once: MGC -> MG three actions, each Modify A4444.
%% Each side checks every request it receives and every reply it gets
%% against what the other side is scripted to send: both are built here,
%% taken through the peer's own encoder and decoder (the form its decoder
%% gives), and compared term by term (asn1_NOVALUE and [] are the same).
%%
%% Output, one line each on stdout:
%%   READY role=R transport=T encoding=E version=V port=P   transport is up
%%   PEER role=mgc addr=A port=P       where the MGC's megaco sends to (the
%%                                     source of the registration)
%%   STEP send|expect|await_ack NAME ok                     one step done
%%   RESULT ok role=R transactions=N acks=A segment_replies=S  exit status 0
%%   RESULT fail role=R step=NAME reason=TEXT                exit status 1
%% and on stderr NOTE lines for what OTP reports that the script does not
%% expect (syntax errors, unexpected transactions). Usage errors exit with
%% status 2.

-module(megaco_peer).
-mode(compile).

-include_lib("megaco/include/megaco.hrl").
-include_lib("megaco/include/megaco_message_v3.hrl").

-export([main/1]).
-export([handle_connect/3, handle_disconnect/4, handle_syntax_error/4,
         handle_message_error/4, handle_trans_request/4,
         handle_trans_long_request/4, handle_trans_reply/5,
         handle_trans_ack/5, handle_unexpected_trans/4,
         handle_trans_request_abort/5, handle_segment_reply/6]).

-define(LOCALHOST, {127, 0, 0, 1}).
%% Large socket buffers: a segmented reply is a burst of datagrams, and on a
%% busy machine the default buffer drops some of it (a segment timeout
%% that is the test machine's, not the peers').
udp_options(#{local_host := H}) -> [{ip, H}, {recbuf, 1048576}, {sndbuf, 1048576}].
-define(CTX, 2000).
-define(CALLBACK_WAIT, 20000).

%% ---------------------------------------------------------------------
%% Command line

main([Role | Args]) when Role =:= "mgc"; Role =:= "mg" ->
    Conf = try
               options(Args, #{role => list_to_atom(Role), transport => udp,
                               encoding => compact, version => 1,
                               remote_host => ?LOCALHOST, local_host => ?LOCALHOST,
                               calls => 1, sc_method => restart,
                               timeout => 30})
           catch throw:{usage, Why} -> usage(Why)
           end,
    maps:is_key(local_port, Conf) orelse usage("--local-port is required"),
    (maps:get(role, Conf) =:= mgc) orelse maps:is_key(remote_port, Conf)
        orelse usage("the MG needs --remote-port"),
    run(Conf);
main(_) ->
    usage("the first argument is mgc or mg").

options([], C) -> C;
options(["--transport", T | R], C) when T =:= "udp"; T =:= "tcp" ->
    options(R, C#{transport => list_to_atom(T)});
options(["--encoding", E | R], C)
  when E =:= "pretty"; E =:= "compact"; E =:= "ber"; E =:= "per" ->
    options(R, C#{encoding => list_to_atom(E)});
options(["--version", V | R], C) when V =:= "1"; V =:= "2"; V =:= "3" ->
    options(R, C#{version => list_to_integer(V)});
options(["--local-port", P | R], C) -> options(R, C#{local_port => port(P)});
options(["--remote-port", P | R], C) -> options(R, C#{remote_port => port(P)});
options(["--remote-host", H | R], C) ->
    case inet:parse_address(H) of
        {ok, A} -> options(R, C#{remote_host => A});
        _ -> throw({usage, "bad --remote-host " ++ H})
    end;
options(["--calls", N | R], C) -> options(R, C#{calls => count(N, 1, 100)});
options(["--timeout", S | R], C) -> options(R, C#{timeout => count(S, 1, 600)});
options(["--segment" | R], C) -> options(R, C#{segment => true});
options(["--strict" | R], C) -> options(R, C#{strict => true});
options(["--local-host", H | R], C) ->
    case inet:parse_address(H) of
        {ok, A} -> options(R, C#{local_host => A});
        _ -> throw({usage, "bad --local-host " ++ H})
    end;
options(["--sc-method", "handoff" | R], C) -> options(R, C#{sc_method => handOff});
options(["--sc-method", M | R], C)
  when M =:= "restart"; M =:= "disconnected"; M =:= "failover" ->
    options(R, C#{sc_method => list_to_atom(M)});
options(["--first-tid", N | R], C) -> options(R, C#{first_tid => count(N, 1, 1000000)});
options(["--then", W | R], C) when W =:= "reregister"; W =:= "handoff" ->
    options(R, C#{then => list_to_atom(W)});
options(["--handoff-to", HP | R], C) ->
    case string:split(HP, ":", trailing) of
        [H, P] ->
            case inet:parse_address(H) of
                {ok, A} -> options(R, C#{handoff_to => {A, port(P)}});
                _ -> throw({usage, "bad --handoff-to " ++ HP})
            end;
        _ -> throw({usage, "bad --handoff-to " ++ HP ++ " (HOST:PORT)"})
    end;
options(["--delay-reply", D | R], C) ->
    case string:split(D, ":") of
        [Step, Ms] ->
            options(R, C#{delay => {list_to_atom(Step), count(Ms, 0, 60000)}});
        _ ->
            throw({usage, "bad --delay-reply " ++ D ++ " (STEP:MS)"})
    end;
options([Bad | _], _) -> throw({usage, "bad option or value: " ++ Bad}).

port(S) -> count(S, 1, 65535).

count(S, Min, Max) ->
    case string:to_integer(S) of
        {N, []} when N >= Min, N =< Max -> N;
        _ -> throw({usage, "bad number " ++ S})
    end.

usage(Why) ->
    io:format(standard_error,
              "megaco_peer.escript: ~s~n"
              "usage: megaco_peer.escript mgc|mg --local-port P [--remote-port Q]~n"
              "       [--remote-host H] [--transport udp|tcp]~n"
              "       [--encoding pretty|compact|ber] [--version 1|2|3]~n"
              "       [--calls N] [--timeout S] [--delay-reply STEP:MS] [--segment]~n", [Why]),
    halt(2).

%% ---------------------------------------------------------------------
%% Run: the main process starts megaco and a controller that runs the
%% script, and ends the OS process with the controller's verdict, or with
%% a failure when the time is up.

run(#{role := Role, timeout := Timeout} = Conf0) ->
    Main = self(),
    Conf = Conf0#{mid => mid(Conf0), main => Main},
    persistent_term:put(?MODULE, Conf),
    ok = megaco:start(),
    process_flag(trap_exit, true),
    _ = spawn_link(fun() -> controller(Conf) end),
    erlang:send_after(Timeout * 1000, Main, timeout),
    wait(Role, start).

wait(Role, Step) ->
    receive
        {step, Name} ->
            wait(Role, Name);
        {done, Transactions, Acks, Segs} ->
            finish(io_lib:format("RESULT ok role=~s transactions=~w acks=~w segment_replies=~w",
                                 [Role, Transactions, Acks, Segs]), 0);
        {fail, Name, Reason} ->
            fail(Role, Name, Reason);
        {'EXIT', _, Reason} ->
            fail(Role, Step, {crash, Reason});
        timeout ->
            fail(Role, Step, timeout)
    end.

fail(Role, Step, Reason) ->
    Text = re:replace(lists:flatten(io_lib:format("~0p", [Reason])),
                      "\\s+", " ", [global, {return, list}]),
    finish(io_lib:format("RESULT fail role=~s step=~s reason=~s",
                         [Role, Step, string:slice(Text, 0, 4000)]), 1).

finish(Line, Status) ->
    io:format("~s~n", [Line]),
    halt(Status).

%% The MId is the peer's own address, as in RFC 3525's examples.
mid(#{local_port := P, local_host := H}) -> ip_mid(H, P).

ip_mid(H, P) -> {ip4Address, #'IP4Address'{address = tuple_to_list(H), portNumber = P}}.

encoding(pretty) -> {megaco_pretty_text_encoder, [{version3, v3}]};
encoding(compact) -> {megaco_compact_text_encoder, [{version3, v3}]};
encoding(ber) -> {megaco_ber_encoder, []};
encoding(per) -> {megaco_per_encoder, []}.

send_mod(udp) -> megaco_udp;
send_mod(tcp) -> megaco_tcp.

%% Request retransmission as OTP would do over UDP; over TCP a request is
%% sent once (RFC 3525 Annex D.2: the transport is reliable).
request_timer(udp) ->
    #megaco_incr_timer{wait_for = 2000, factor = 2, incr = 0, max_retries = 3};
request_timer(tcp) ->
    #megaco_incr_timer{wait_for = 15000, factor = 1, incr = 0, max_retries = 0}.

start_user(#{mid := Mid, transport := T, encoding := E, version := V} = Conf) ->
    {EM, EC} = encoding(E),
    Config = [{user_mod, ?MODULE}, {user_args, [self()]},
              {send_mod, send_mod(T)}, {encoding_mod, EM},
              {encoding_config, EC}, {protocol_version, V},
              {request_timer, request_timer(T)},
              {long_request_timer, 15000}, {reply_timer, 20000}
              | segment_config(Conf) ++ first_tid(Conf)],
    ok = megaco:start_user(Mid, Config),
    #megaco_receive_handle{local_mid = Mid, encoding_mod = EM,
                           encoding_config = EC, send_mod = send_mod(T),
                           protocol_version = receive_version(E, V)}.

%% With --segment (v3), every reply is sent in segments (OTP segments a
%% reply whose action replies take more than max_pdu_size - 128 bytes:
%% 128 means all), one ActionReply each, all at once; the receiver answers
%% each with a SegmentReply (H.248.1 v3 8.1.1; RFC 3525 has none). OTP
%% 25 segments text only: with BER the reply goes whole.
segment_config(#{segment := true, version := 3}) ->
    [{segment_send, infinity}, {max_pdu_size, 128}, {segment_reply_ind, true}];
segment_config(_) ->
    [].

%% --first-tid: the transaction IDs this peer starts from. A second MGC
%% behind one proxy is one controller to the MG (the proxy's mId): IDs
%% the first MGC used a moment ago would be taken, by the MG, for
%% retransmissions and answered from its reply cache (OTP keeps replies
%% for reply_timer).
first_tid(#{first_tid := N}) -> [{min_trans_id, N}];
first_tid(_) -> [].

%% A text message says its version in its header, so the receive handle
%% can stay dynamic (OTP's default). OTP's BER decoder takes dynamic to
%% mean version 1 (megaco_ber_encoder:decode_message/3), which would drop
%% every v2 and v3 field: a BER peer must be told its version.
receive_version(ber, V) -> V;
receive_version(per, V) -> V;
receive_version(_, _) -> dynamic.

%% ---------------------------------------------------------------------
%% Controller

controller(#{role := Role} = Conf) ->
    RH = start_user(Conf),
    State = try transport(Role, RH, Conf)
            catch throw:{fail, Why} -> fail_now(transport, Why)
            end,
    #{transport := T, encoding := E, version := V, local_port := P} = Conf,
    io:format("READY role=~s transport=~s encoding=~s version=~w port=~w~n",
              [Role, T, E, V, P]),
    Steps = steps(Role, maps:get(calls, Conf)),
    St = lists:foldl(fun step/2, State#{n => 0, acks => 0}, Steps),
    linger(Role),
    Segs = segment_replies(0),
    case Conf of
        #{segment := true, version := 3} when Segs =:= 0 ->
            fail_now(segment_replies, no_segment_reply_came_back);
        _ ->
            maps:get(main, Conf) ! {done, maps:get(n, St), maps:get(acks, St), Segs}
    end.

%% segment_replies counts the SegmentReplies the peer's replies got.
segment_replies(N) ->
    receive
        {segment_reply, _, _} -> segment_replies(N + 1)
    after 300 ->
            N
    end.

fail_now(Step, Why) ->
    #{main := Main} = persistent_term:get(?MODULE),
    Main ! {fail, Step, Why},
    receive after infinity -> ok end.

%% The MGC stays a moment after its last reply so that the
%% TransactionResponseAck its megaco sends on that reply leaves before
%% the OS process ends.
linger(mgc) -> receive after 500 -> ok end;
linger(mg) -> ok.

transport(mgc, RH, #{transport := udp, local_port := P} = Conf) ->
    {ok, Sup} = megaco_udp:start_transport(),
    case megaco_udp:open(Sup, [{port, P}, {receive_handle, RH},
                               {udp_options, udp_options(Conf)}]) of
        {ok, _Socket, _Pid} -> #{};
        Error -> throw({fail, {udp_open, Error}})
    end;
transport(mgc, RH, #{transport := tcp, local_port := P, local_host := LH}) ->
    {ok, Sup} = megaco_tcp:start_transport(),
    case megaco_tcp:listen(Sup, [{port, P}, {receive_handle, RH},
                                 {tcp_options, [{ip, LH}]}]) of
        ok -> #{};
        Error -> throw({fail, {tcp_listen, Error}})
    end;
transport(mg, RH, #{transport := udp, local_port := P, remote_host := H,
                    remote_port := Q} = Conf) ->
    {ok, Sup} = megaco_udp:start_transport(),
    case megaco_udp:open(Sup, [{port, P}, {receive_handle, RH},
                               {udp_options, udp_options(Conf)}]) of
        {ok, Socket, Pid} ->
            SH = megaco_udp:create_send_handle(Socket, H, Q),
            connect(RH, SH, Pid);
        Error ->
            throw({fail, {udp_open, Error}})
    end;
transport(mg, RH, #{transport := tcp, remote_host := H, remote_port := Q,
                    local_host := LH}) ->
    {ok, Sup} = megaco_tcp:start_transport(),
    tcp_connect(Sup, RH, H, Q, LH, 20).

%% The controller (MGC or proxy) may still be starting: try for a while.
tcp_connect(Sup, RH, H, Q, LH, Tries) ->
    case megaco_tcp:connect(Sup, [{host, H}, {port, Q},
                                  {receive_handle, RH},
                                  {tcp_options, [{ip, LH}]}]) of
        {ok, Socket, Pid} ->
            connect(RH, Socket, Pid);
        Error when Tries > 1 ->
            io:format(standard_error, "tcp connect: ~0p; retrying~n", [Error]),
            receive after 250 -> ok end,
            tcp_connect(Sup, RH, H, Q, LH, Tries - 1);
        Error ->
            throw({fail, {tcp_connect, Error}})
    end.

%% The MG does not know the MGC's MId before the reply to its
%% registration: OTP's preliminary_mid is for that.
connect(RH, SH, Pid) ->
    case megaco:connect(RH, preliminary_mid, SH, Pid) of
        {ok, CH} -> #{ch => CH};
        Error -> throw({fail, {connect, Error}})
    end.

%% steps ends the script with a request of three actions (each a Modify
%% of A4444 in the null context): with --segment, its reply is sent in
%% three segments.
steps(mgc, Calls) -> script(mgc, Calls);
steps(mg, Calls) -> script(mg, Calls) ++ [{expect, three_actions}].

%% The script of each role: what it sends (and the reply it expects) and
%% what it receives (and the reply it gives), in order.
script(mgc, Calls) ->
    [{expect, service_change} | calls(mgc, Calls)] ++
        case persistent_term:get(?MODULE) of
            #{handoff_to := _} -> [{send, handoff}];
            _ -> [{send, three_actions}]
        end;
script(mg, Calls) ->
    [{send, service_change} | calls(mg, Calls)] ++
        case persistent_term:get(?MODULE) of
            #{then := reregister} ->
                [{expect, three_actions}, {wait_stdin, reregister}, {send, reregister}
                 | calls(mg, Calls)];
            #{then := handoff} ->
                [{expect, handoff}, {send, reregister} | calls(mg, Calls)];
            _ -> []
        end.

calls(mgc, Calls) ->
    lists:append(lists:duplicate(Calls,
       [{send, modify_events}, {expect, notify}, {send, modify_digits},
        {expect, notify_digits}, {send, add},
        {send, modify_call}, {send, subtract}, {await_ack, notify}]));
calls(mg, Calls) ->
    lists:append(lists:duplicate(Calls,
       [{expect, modify_events}, {send, notify}, {expect, modify_digits},
        {send, notify_digits}, {expect, add},
        {expect, modify_call}, {expect, subtract}, {await_ack, subtract}])).

step({Kind, Name} = Step, St) ->
    #{main := Main} = persistent_term:get(?MODULE),
    Main ! {step, Name},
    try do_step(Step, St) of
        St2 ->
            (Kind =:= expect andalso Name =:= service_change) andalso peer(St2),
            io:format("STEP ~s ~s ok~n", [Kind, Name]),
            St2
    catch
        throw:{fail, Why} -> fail_now(Name, Why)
    end.

do_step({send, Name}, #{ch := CH, n := N} = St) ->
    Conf = persistent_term:get(?MODULE),
    Actions = canon_actions(request(Name), Conf),
    case megaco:call(CH, Actions, []) of
        {V, Reply} when V =:= map_get(version, Conf) ->
            check_reply(Name, Reply, Conf),
            strict_registered(Name, CH, Reply, Conf),
            St#{n => N + 1};
        {V, Reply} ->
            throw({fail, {wrong_version, V, Reply}});
        Other ->
            throw({fail, {call, Other}})
    end;
do_step({send, Name}, _St) ->
    throw({fail, {no_connection_to_send, Name}});
do_step({wait_stdin, _Name}, St) ->
    io:format("WAITING~n"),
    case io:get_line("") of
        eof -> throw({fail, stdin_closed});
        _ -> St
    end;
do_step({expect, Name}, #{n := N} = St) ->
    Conf0 = persistent_term:get(?MODULE),
    %% The first request may come late: a failover first waits for the
    %% MG's registration to go unanswered elsewhere.
    Wait = case N of
               0 -> maps:get(timeout, Conf0) * 1000;
               _ -> ?CALLBACK_WAIT
           end,
    receive
        {request, From, CH, V, Actions} ->
            Conf = persistent_term:get(?MODULE),
            Raw = adopt(request(Name), Actions),
            Want = canon_actions(Raw, Conf),
            Result = case {V =:= map_get(version, Conf), check_diff(Want, Raw, Actions)} of
                         {false, _} -> {wrong_version, V};
                         {true, same} -> strict_request(Name, CH, Actions, St, Conf);
                         {true, D} -> {request_differs, D}
                     end,
            case Result of
                ok ->
                    case Conf of
                        #{delay := {Name, Ms}} -> receive after Ms -> ok end;
                        _ -> ok
                    end,
                    Reply = downgrade(V, reply(Name)),
                    From ! {reply, self(), {ack_action(Name), Reply}},
                    St2 = case maps:is_key(reg_ch, St) of
                              true -> St;
                              false -> St#{reg_ch => CH}
                          end,
                    St2#{ch => CH, n => N + 1};
                Bad ->
                    Code = case Bad of
                               {unauthorized, _} -> 402;
                               _ -> 400
                           end,
                    ED = #'ErrorDescriptor'{errorCode = Code,
                                            errorText = "unexpected request"},
                    From ! {reply, self(), {discard_ack, ED}},
                    throw({fail, Bad})
            end
    after Wait ->
            throw({fail, no_request})
    end;
do_step({await_ack, _Name}, #{acks := A} = St) ->
    receive
        {ack, ok, _Data} -> St#{acks => A + 1};
        {ack, Status, Data} -> throw({fail, {ack, Status, Data}})
    after ?CALLBACK_WAIT ->
            throw({fail, no_transaction_response_ack})
    end.

%% peer prints where the connection sends to, and checks it for the MGC
%% over UDP when --remote-port is given: OTP sends its requests (and its
%% replies) to the address the MG's registration came from.
peer(#{ch := CH}) ->
    Conf = persistent_term:get(?MODULE),
    {Addr, Port} = case megaco:conn_info(CH, send_handle) of
                       {send_handle, _Socket, A, P} -> {A, P};
                       Socket ->
                           case inet:peername(Socket) of
                               {ok, AP} -> AP;
                               _ -> {unknown, 0}
                           end
                   end,
    io:format("PEER role=~s addr=~s port=~w~n",
              [map_get(role, Conf), inet:ntoa(Addr), Port]),
    case Conf of
        #{role := mgc, transport := udp, remote_port := Q} when Q =/= Port ->
            throw({fail, {registration_from_port, Port, expected, Q}});
        _ ->
            ok
    end.

%% ---------------------------------------------------------------------
%% Strict peers: what a production MGC and MG check of each other.

%% strict_request runs, for a strict peer, the checks on a request that
%% matched the script: every request comes on the connection (the mId)
%% the peer registered with; the registration's mId IP is the source IP
%% (else 402, as a softswitch that authenticates by address answers); an
%% MGC then sends to the mId's IP and the ServiceChangeAddress port; an
%% MG handed off re-points to MgcIdToTry.
strict_request(Name, CH, Actions, St, #{strict := true} = Conf) ->
    case St of
        #{reg_ch := Reg} when Reg =/= CH, Name =/= service_change ->
            {mid_changed, Reg, CH};
        _ ->
            try strict_check(Name, CH, Actions, Conf)
            catch throw:{strict, Why} -> Why
            end
    end;
strict_request(_, _, _, _, _) ->
    ok.

strict_check(service_change, CH, Actions, #{role := mgc, transport := T}) ->
    {MidIP, MidPort} = mid_addr(CH#megaco_conn_handle.remote_mid),
    {SrcIP, _, Sock} = source(CH),
    MidIP =:= SrcIP orelse throw({strict, {unauthorized, {mid, MidIP, source, SrcIP}}}),
    Port = case sc_field(address, find_sc(Actions)) of
               {portNumber, P} -> P;
               _ -> MidPort
           end,
    repoint(T, CH, Sock, MidIP, Port),
    io:format("STRICT role=mgc mid=~s sends_to=~s:~w~n", [inet:ntoa(MidIP), inet:ntoa(MidIP), Port]),
    ok;
strict_check(handoff, CH, Actions, #{role := mg, transport := T, remote_port := Q}) ->
    {SrcIP, _, Sock} = source(CH),
    {IP, Port} = mid_addr(sc_field(mgc_id, find_sc(Actions))),
    case T of
        udp -> repoint(T, CH, Sock, IP, Port);
        tcp -> {IP, Port} =:= {SrcIP, Q} orelse
                   throw({strict, {mgc_to_try_elsewhere, IP, Port}})
    end,
    io:format("STRICT role=mg handoff_to=~s:~w~n", [inet:ntoa(IP), Port]),
    ok;
strict_check(_, CH, _, #{role := mg}) ->
    controller_check(CH);
strict_check(_, _, _, _) ->
    ok.

%% controller_check: the MG's controller's mId IP is the address the MG
%% talks to.
controller_check(CH) ->
    {MidIP, _} = mid_addr(CH#megaco_conn_handle.remote_mid),
    {SrcIP, _, _} = source(CH),
    MidIP =:= SrcIP orelse throw({strict, {unauthorized, {mid, MidIP, source, SrcIP}}}),
    ok.

%% strict_registered: after its registration is answered, a strict MG
%% checks the controller's mId (it is known from the reply on) and sends
%% to the reply's ServiceChangeAddress port from then on.
strict_registered(Name, _CH, Reply, #{strict := true, role := mg, transport := T} = Conf)
  when Name =:= service_change; Name =:= reregister ->
    LocalMid = maps:get(mid, Conf),
    CHs = [C || C <- megaco:user_info(LocalMid, connections),
                C#megaco_conn_handle.remote_mid =/= preliminary_mid],
    case CHs of
        [CH] ->
            try controller_check(CH)
            catch throw:{strict, Why} -> throw({fail, Why})
            end,
            {MidIP, _} = mid_addr(CH#megaco_conn_handle.remote_mid),
            case sc_field(address, find_sc(Reply)) of
                {portNumber, P} ->
                    {_, _, Sock} = source(CH),
                    repoint(T, CH, Sock, MidIP, P),
                    io:format("STRICT role=mg controller=~s sends_to=~s:~w~n",
                              [inet:ntoa(MidIP), inet:ntoa(MidIP), P]);
                _ ->
                    io:format("STRICT role=mg controller=~s~n", [inet:ntoa(MidIP)])
            end;
        Other ->
            throw({fail, {connections, Other}})
    end;
strict_registered(_, _, _, _) ->
    ok.

mid_addr({ip4Address, #'IP4Address'{address = A, portNumber = P}}) ->
    {list_to_tuple(A), P};
mid_addr(Other) ->
    throw({strict, {not_an_ip4_mid, Other}}).

%% source is the address a connection talks to: over UDP its send handle's,
%% over TCP the socket's peer. The socket comes with it (UDP: to re-point).
source(CH) ->
    case megaco:conn_info(CH, send_handle) of
        {send_handle, Sock, A, P} -> {A, P, Sock};
        Sock ->
            case inet:peername(Sock) of
                {ok, {A, P}} -> {A, P, Sock};
                Error -> throw({strict, {peername, Error}})
            end
    end.

repoint(udp, CH, Sock, IP, Port) ->
    SH = megaco_udp:create_send_handle(Sock, IP, Port),
    ok = megaco:update_conn_info(CH, send_handle, SH);
repoint(tcp, _, _, _, _) ->
    ok.

%% The ServiceChange parameters of a request or reply term (v1 to v3: the
%% fields used here sit at the same place in each).
find_sc(T) when is_tuple(T), tuple_size(T) > 0,
                (element(1, T) =:= 'ServiceChangeParm' orelse
                 element(1, T) =:= 'ServiceChangeResParm') ->
    T;
find_sc(T) when is_tuple(T) -> find_sc(tuple_to_list(T));
find_sc([H | R]) ->
    case find_sc(H) of
        none -> find_sc(R);
        Found -> Found
    end;
find_sc(_) -> none.

map_sc(T, F) when is_tuple(T), tuple_size(T) > 0,
                  (element(1, T) =:= 'ServiceChangeParm' orelse
                   element(1, T) =:= 'ServiceChangeResParm') ->
    F(T);
map_sc(T, F) when is_tuple(T) -> list_to_tuple([map_sc(E, F) || E <- tuple_to_list(T)]);
map_sc(L, F) when is_list(L) -> [map_sc(E, F) || E <- L];
map_sc(X, _) -> X.

sc_pos(address, 'ServiceChangeParm') -> #'ServiceChangeParm'.serviceChangeAddress;
sc_pos(mgc_id, 'ServiceChangeParm') -> #'ServiceChangeParm'.serviceChangeMgcId;
sc_pos(address, 'ServiceChangeResParm') -> #'ServiceChangeResParm'.serviceChangeAddress;
sc_pos(mgc_id, 'ServiceChangeResParm') -> #'ServiceChangeResParm'.serviceChangeMgcId.

sc_field(_, none) -> asn1_NOVALUE;
sc_field(F, P) -> element(sc_pos(F, element(1, P)), P).

%% adopt takes the fields that name addresses (ServiceChangeAddress,
%% MgcId) from what arrived into what is expected: whoever sits between
%% the peers may rewrite them (a strict peer checks them by behaviour:
%% strict_check), the rest must arrive as sent.
adopt(Want, Got) ->
    case find_sc(Got) of
        none -> Want;
        G -> map_sc(Want, fun(P) when element(1, P) =:= element(1, G) ->
                                  lists:foldl(fun(F, Acc) ->
                                                      setelement(sc_pos(F, element(1, P)), Acc, sc_field(F, G))
                                              end, P, [address, mgc_id]);
                             (P) -> P
                          end)
    end.

%% A reply is wanted acknowledged (immAckRequired: the three-way handshake
%% of RFC 3525 section 8.2.2) for the two transactions that end a phase.
ack_action(notify) -> {handle_ack, notify};
ack_action(subtract) -> {handle_ack, subtract};
ack_action(_) -> discard_ack.

check_reply(Name, {ok, Got}, Conf) -> check_replies(Name, Got, Conf);
check_reply(Name, {ok, Got, _Extra}, Conf) -> check_replies(Name, Got, Conf);
check_reply(_Name, Other, _Conf) -> throw({fail, {reply, Other}}).

%% A segmented reply (v3) comes back as [{SegmentNo, ActionReplies}].
check_replies(Name, [{N, L} | _] = Segments, Conf) when is_integer(N), is_list(L) ->
    check_replies(Name, lists:append([ARs || {_, ARs} <- lists:keysort(1, Segments)]), Conf);
check_replies(Name, Got, Conf) ->
    Raw = adopt(reply(Name), Got),
    case check_diff(canon_replies(Raw, Conf), Raw, Got) of
        same -> ok;
        D -> throw({fail, {reply_differs, D}})
    end.

%% ---------------------------------------------------------------------
%% megaco_user callbacks: they run in megaco's processes and hand every
%% request and acknowledgement to the controller (the last user arg).

handle_connect(_CH, _V, _Ctl) -> ok.

handle_disconnect(_CH, _V, _Reason, _Ctl) -> ok.

handle_syntax_error(_RH, _V, ED, _Ctl) ->
    note({syntax_error, ED}),
    reply.

handle_message_error(_CH, _V, ED, _Ctl) ->
    note({message_error, ED}),
    no_reply.

handle_trans_request(CH, V, Actions, Ctl) ->
    Ctl ! {request, self(), CH, V, Actions},
    receive
        {reply, Ctl, Answer} -> Answer
    after ?CALLBACK_WAIT ->
            {discard_ack, #'ErrorDescriptor'{errorCode = 500,
                                             errorText = "no answer"}}
    end.

handle_trans_long_request(_CH, _V, _ReqData, _Ctl) ->
    {discard_ack, #'ErrorDescriptor'{errorCode = 500,
                                     errorText = "no long requests"}}.

handle_trans_reply(_CH, _V, Reply, _Data, _Ctl) ->
    note({unexpected_reply, Reply}),
    ok.

handle_trans_ack(_CH, _V, Status, Data, Ctl) ->
    Ctl ! {ack, Status, Data},
    ok.

handle_unexpected_trans(_CH, _V, Trans, _Ctl) ->
    note({unexpected_transaction, Trans}),
    ok.

handle_trans_request_abort(_CH, _V, TransNo, _Pid, _Ctl) ->
    note({request_abort, TransNo}),
    ok.

handle_segment_reply(_CH, _V, TransNo, SegNo, _SegCompl, Ctl) ->
    Ctl ! {segment_reply, TransNo, SegNo},
    ok.

%% Things the peers do not expect go to stderr; the test shows them when
%% a run fails.
note(What) ->
    io:format(standard_error, "NOTE ~0p~n", [What]).

%% ---------------------------------------------------------------------
%% The messages, as v3 records (megaco_message_v3.hrl); downgrade/2 trims
%% the four records that differ for v1 and v2.

tid(tdm) -> #megaco_term_id{id = ["00000001", "00000000", "00000001"]};
tid(rtp) -> #megaco_term_id{id = ["00000010", "00000000", "00000001"]};
tid(choose) -> #megaco_term_id{contains_wildcards = true,
                               id = [[?megaco_choose]]}.

prop(Name, Value) -> #'PropertyParm'{name = Name, value = [Value]}.

sdp(Lines) -> [prop(N, V) || {N, V} <- Lines].

media(StreamParms) ->
    {mediaDescriptor,
     #'MediaDescriptor'{streams = {multiStream,
                                   [#'StreamDescriptor'{streamID = 1,
                                                        streamParms = StreamParms}]}}}.

cmd(C) -> #'CommandRequest'{command = C}.

action(Ctx, Cmds) ->
    [#'ActionRequest'{contextId = Ctx, commandRequests = [cmd(C) || C <- Cmds]}].

action_reply(Ctx, Replies) ->
    [#'ActionReply'{contextId = Ctx, commandReply = Replies}].

sc_version() ->
    case map_get(version, persistent_term:get(?MODULE)) of
        1 -> asn1_NOVALUE;
        V -> V
    end.

request(service_change) ->
    sc_request(map_get(sc_method, persistent_term:get(?MODULE)), asn1_NOVALUE);
request(reregister) ->
    Method = case map_get(then, persistent_term:get(?MODULE)) of
                 reregister -> disconnected;
                 handoff -> handOff
             end,
    sc_request(Method, asn1_NOVALUE);
request(handoff) ->
    MgcId = case persistent_term:get(?MODULE) of
                #{handoff_to := {H, P}} -> ip_mid(H, P);
                _ -> asn1_NOVALUE % the MG expects it: adopt/2 takes the one that came
            end,
    sc_request(handOff, MgcId);
request(modify_events) ->
    LC = #'LocalControlDescriptor'{streamMode = sendRecv,
                                   propertyParms = [prop("tdmc/gain", "2"),
                                                    prop("tdmc/ec", "on")]},
    Ev = #'RequestedEvent'{pkgdName = "al/of",
                           evParList = [#'EventParameter'{eventParameterName = "strict",
                                                          value = ["state"]}]},
    action(?megaco_null_context_id,
           [{modReq, #'AmmRequest'{terminationID = [tid(tdm)],
                                   descriptors = [media(#'StreamParms'{localControlDescriptor = LC}),
                                                  {eventsDescriptor,
                                                   #'EventsDescriptor'{requestID = 2222,
                                                                       eventList = [Ev]}}]}}]);
request(notify) ->
    Ev = #'ObservedEvent'{eventName = "al/of",
                          timeNotation = #'TimeNotation'{date = "19990729",
                                                         time = "22000000"},
                          eventParList = [#'EventParameter'{eventParameterName = "init",
                                                            value = ["false"]}]},
    action(?megaco_null_context_id,
           [{notifyReq, #'NotifyRequest'{terminationID = [tid(tdm)],
                                         observedEventsDescriptor =
                                             #'ObservedEventsDescriptor'{requestId = 2222,
                                                                         observedEventLst = [Ev]}}}]);
request(modify_digits) ->
    On = #'RequestedEvent'{pkgdName = "al/on",
                           evParList = [#'EventParameter'{eventParameterName = "strict",
                                                          value = ["state"]}]},
    Ce = #'RequestedEvent'{pkgdName = "dd/ce",
                           eventAction = #'RequestedActions'{eventDM = {digitMapName, "dialplan00"}}},
    Map = #'DigitMapDescriptor'{
             digitMapName = "dialplan00",
             digitMapValue = #'DigitMapValue'{
                                digitMapBody = "(0|00|[1-7]xxx|8xxxxxxx|Fxxxxxxx|Exx|91xxxxxxxxxx|9011x.)"}},
    action(?megaco_null_context_id,
           [{modReq, #'AmmRequest'{terminationID = [tid(tdm)],
                                   descriptors = [{eventsDescriptor,
                                                   #'EventsDescriptor'{requestID = 2223,
                                                                       eventList = [On, Ce]}},
                                                  {signalsDescriptor,
                                                   [{signal, #'Signal'{signalName = "cg/dt"}}]},
                                                  {digitMapDescriptor, Map}]}}]);
request(notify_digits) ->
    Ev = #'ObservedEvent'{eventName = "dd/ce",
                          timeNotation = #'TimeNotation'{date = "19990729",
                                                         time = "22010001"},
                          eventParList = [#'EventParameter'{eventParameterName = "ds",
                                                            value = ["916135551212"]},
                                          #'EventParameter'{eventParameterName = "Meth",
                                                            value = ["UM"]}]},
    action(?megaco_null_context_id,
           [{notifyReq, #'NotifyRequest'{terminationID = [tid(tdm)],
                                         observedEventsDescriptor =
                                             #'ObservedEventsDescriptor'{requestId = 2223,
                                                                         observedEventLst = [Ev]}}}]);
request(three_actions) ->
    [A || _ <- [1, 2, 3], A <- action(?megaco_null_context_id,
                                      [{modReq, #'AmmRequest'{terminationID = [tid(tdm)]}}])];
request(add) ->
    LC = #'LocalControlDescriptor'{streamMode = recvOnly,
                                   propertyParms = [prop("nt/jit", "40")]},
    Local = #'LocalRemoteDescriptor'{
               propGrps = [sdp([{"v", "0"}, {"c", "IN IP4 $"},
                                {"m", "audio $ RTP/AVP 4"}, {"a", "ptime:30"}]),
                           sdp([{"v", "0"}, {"c", "IN IP4 $"},
                                {"m", "audio $ RTP/AVP 0"}])]},
    action(?megaco_choose_context_id,
           [{addReq, #'AmmRequest'{terminationID = [tid(tdm)], descriptors = []}},
            {addReq, #'AmmRequest'{terminationID = [tid(choose)],
                                   descriptors = [media(#'StreamParms'{localControlDescriptor = LC,
                                                                       localDescriptor = Local})]}}]);
request(modify_call) ->
    Remote = #'LocalRemoteDescriptor'{
                propGrps = [sdp([{"v", "0"},
                                 {"o", "- 7736844526 7736842807 IN IP4 125.125.125.111"},
                                 {"s", "-"}, {"t", "0 0"},
                                 {"c", "IN IP4 125.125.125.111"},
                                 {"m", "audio 1111 RTP/AVP 4"}])]},
    action(?CTX,
           [{modReq, #'AmmRequest'{terminationID = [tid(tdm)],
                                   descriptors = [{signalsDescriptor,
                                                   [{signal, #'Signal'{signalName = "cg/rt"}}]}]}},
            {modReq, #'AmmRequest'{terminationID = [tid(rtp)],
                                   descriptors = [media(#'StreamParms'{remoteDescriptor = Remote})]}}]);
request(subtract) ->
    Audit = #'AuditDescriptor'{auditToken = [statsToken]},
    action(?CTX,
           [{subtractReq, #'SubtractRequest'{terminationID = [tid(tdm)], auditDescriptor = Audit}},
            {subtractReq, #'SubtractRequest'{terminationID = [tid(rtp)], auditDescriptor = Audit}}]).

reply(handoff) ->
    Res = #'ServiceChangeResParm'{
             serviceChangeVersion = sc_version(),
             serviceChangeProfile = #'ServiceChangeProfile'{profileName = "resgw",
                                                            version = 1}},
    action_reply(?megaco_null_context_id,
                 [{serviceChangeReply,
                   #'ServiceChangeReply'{terminationID = [?megaco_root_termination_id],
                                         serviceChangeResult = {serviceChangeResParms, Res}}}]);
reply(reregister) ->
    reply(service_change);
reply(service_change) ->
    Res = #'ServiceChangeResParm'{
             serviceChangeAddress = {portNumber, own_port()},
             serviceChangeVersion = sc_version(),
             serviceChangeProfile = #'ServiceChangeProfile'{profileName = "resgw",
                                                            version = 1}},
    action_reply(?megaco_null_context_id,
                 [{serviceChangeReply,
                   #'ServiceChangeReply'{terminationID = [?megaco_root_termination_id],
                                         serviceChangeResult = {serviceChangeResParms, Res}}}]);
reply(modify_events) ->
    action_reply(?megaco_null_context_id,
                 [{modReply, #'AmmsReply'{terminationID = [tid(tdm)]}}]);
reply(three_actions) ->
    [A || _ <- [1, 2, 3], A <- reply(modify_events)];
reply(modify_digits) ->
    reply(modify_events);
reply(notify_digits) ->
    reply(notify);
reply(notify) ->
    action_reply(?megaco_null_context_id,
                 [{notifyReply, #'NotifyReply'{terminationID = [tid(tdm)]}}]);
reply(add) ->
    Local = #'LocalRemoteDescriptor'{
               propGrps = [sdp([{"v", "0"},
                                {"o", "- 2890844526 2890842807 IN IP4 124.124.124.222"},
                                {"s", "-"}, {"t", "0 0"},
                                {"c", "IN IP4 124.124.124.222"},
                                {"m", "audio 2222 RTP/AVP 4"},
                                {"a", "ptime:30"}, {"a", "recvonly"}])]},
    action_reply(?CTX,
                 [{addReply, #'AmmsReply'{terminationID = [tid(tdm)]}},
                  {addReply, #'AmmsReply'{terminationID = [tid(rtp)],
                                          terminationAudit =
                                              [media(#'StreamParms'{localDescriptor = Local})]}}]);
reply(modify_call) ->
    action_reply(?CTX, [{modReply, #'AmmsReply'{terminationID = [tid(tdm)]}},
                        {modReply, #'AmmsReply'{terminationID = [tid(rtp)]}}]);
reply(subtract) ->
    Stats = fun(L) -> [{statisticsDescriptor,
                        [#'StatisticsParameter'{statName = N, statValue = [V]}
                         || {N, V} <- L]}] end,
    action_reply(?CTX,
                 [{subtractReply,
                   #'AmmsReply'{terminationID = [tid(tdm)],
                                terminationAudit = Stats([{"nt/os", "45123"},
                                                          {"nt/or", "62345"},
                                                          {"nt/dur", "40000"}])}},
                  {subtractReply,
                   #'AmmsReply'{terminationID = [tid(rtp)],
                                terminationAudit = Stats([{"rtp/ps", "1245"},
                                                          {"nt/os", "62345"},
                                                          {"rtp/pr", "780"},
                                                          {"nt/or", "45123"},
                                                          {"rtp/pl", "10"},
                                                          {"rtp/jit", "27"},
                                                          {"rtp/delay", "48"},
                                                          {"nt/dur", "38000"}])}}]).

%% sc_request is a ServiceChange on ROOT. Its ServiceChangeAddress is the
%% sender's own port: where it wants to be reached (RFC 3525 7.2.8); a
%% handoff names the MGC to try instead (the text grammar has room for
%% one of the two).
sc_request(Method, MgcId) ->
    Address = case MgcId of
                  asn1_NOVALUE -> {portNumber, own_port()};
                  _ -> asn1_NOVALUE
              end,
    Parm = #'ServiceChangeParm'{
              serviceChangeMethod = Method,
              serviceChangeAddress = Address,
              serviceChangeMgcId = MgcId,
              serviceChangeVersion = sc_version(),
              serviceChangeProfile = #'ServiceChangeProfile'{profileName = "resgw",
                                                             version = 1},
              serviceChangeReason = ["901"]},
    action(?megaco_null_context_id,
           [{serviceChangeReq,
             #'ServiceChangeRequest'{terminationID = [?megaco_root_termination_id],
                                     serviceChangeParms = Parm}}]).

own_port() -> map_get(local_port, persistent_term:get(?MODULE)).

%% downgrade trims, for a v1 or v2 encoder, the fields that v3 added to
%% the records used here (they are left at asn1_NOVALUE): the records of
%% each version are read from OTP's own megaco_message_vN.hrl.
downgrade(3, T) -> T;
downgrade(V, T) -> downgrade(V, T, arities(V)).

downgrade(V, T, Ar) when is_tuple(T), tuple_size(T) > 0 ->
    L = [downgrade(V, E, Ar) || E <- tuple_to_list(T)],
    case maps:find(hd(L), Ar) of
        {ok, N} when N < length(L) ->
            {Keep, Drop} = lists:split(N, L),
            [asn1_NOVALUE] =:= lists:usort(Drop) orelse
                throw({fail, {not_in_version, V, hd(L), Drop}}),
            list_to_tuple(Keep);
        _ ->
            list_to_tuple(L)
    end;
downgrade(V, L, Ar) when is_list(L) -> [downgrade(V, E, Ar) || E <- L];
downgrade(_, X, _) -> X.

%% arities maps each record name of version V to its tuple size.
arities(V) ->
    Key = {?MODULE, arities, V},
    case persistent_term:get(Key, undefined) of
        undefined ->
            File = filename:join(code:lib_dir(megaco, include),
                                 "megaco_message_v" ++ integer_to_list(V) ++ ".hrl"),
            {ok, Forms} = epp:parse_file(File, []),
            Ar = maps:from_list([{Name, length(Fields) + 1}
                                 || {attribute, _, record, {Name, Fields}} <- Forms]),
            persistent_term:put(Key, Ar),
            Ar;
        Ar ->
            Ar
    end.

%% canon_* give the form the peer's own decoder gives for what the other
%% side is scripted to send: encode and decode with the peer's encoder.
canon_actions(Actions, Conf) ->
    Trans = {transactionRequest,
             #'TransactionRequest'{transactionId = 1, actions = Actions}},
    {transactionRequest, #'TransactionRequest'{actions = A}} = roundtrip(Trans, Conf),
    A.

canon_replies(Replies, #{version := V} = Conf) ->
    TR = case V of
             3 -> #'TransactionReply'{transactionId = 1,
                                      transactionResult = {actionReplies, Replies}};
             _ -> {'TransactionReply', 1, asn1_NOVALUE, {actionReplies, Replies}}
         end,
    {transactionReply, Got} = roundtrip({transactionReply, TR}, Conf),
    {actionReplies, R} = element(4, Got),
    R.

roundtrip(Trans, #{encoding := E, version := V, mid := Mid}) ->
    {EM, EC} = encoding(E),
    Msg = downgrade(V, #'MegacoMessage'{mess = #'Message'{version = V, mId = Mid,
                                                          messageBody = {transactions, [Trans]}}}),
    case EM:encode_message(EC, V, Msg) of
        {ok, Bin} ->
            case EM:decode_message(EC, V, Bin) of
                {ok, #'MegacoMessage'{mess = #'Message'{messageBody = {transactions, [T]}}}} ->
                    T;
                Error ->
                    throw({fail, {own_decoder, Error}})
            end;
        Error ->
            throw({fail, {own_encoder, Error}})
    end.

%% diff compares what was expected with what arrived; it returns same, or
%% the path to the first difference and both values there. Want is the
%% scripted term as the peer's own encoder and decoder give it back; a
%% value that arrives exactly as scripted (Raw) is right too: OTP's text
%% decoder lower-cases unquoted values, while a transcoder in between may
%% carry the sender's value unchanged (quoted), which is no difference.
check_diff(Want, Raw, Got) ->
    case diffr(Want, Raw, Got, []) of
        same -> same;
        {Path, X, Y} -> #{path => lists:reverse(Path), want => X, got => Y}
    end.

diffr(X, _, X, _) -> same;
diffr(_, R, R, _) -> same;
diffr(X, R, Y, P) when is_tuple(X), is_tuple(Y), tuple_size(X) =:= tuple_size(Y), tuple_size(X) > 0 ->
    Rs = case is_tuple(R) andalso tuple_size(R) =:= tuple_size(X) of
             true -> tuple_to_list(R);
             false -> tuple_to_list(X)
         end,
    diffr_list(tuple_to_list(X), Rs, tuple_to_list(Y), element(1, X), 0, P);
diffr(X, R, Y, P) when is_list(X), is_list(Y), length(X) =:= length(Y) ->
    Rs = case is_list(R) andalso length(R) =:= length(X) of
             true -> R;
             false -> X
         end,
    diffr_list(X, Rs, Y, list, 0, P);
diffr(X, _, Y, P) -> diff(X, Y, P).

diffr_list([], [], [], _, _, _) -> same;
diffr_list([X | Xs], [R | Rs], [Y | Ys], Tag, I, P) ->
    case diffr(X, R, Y, [{Tag, I} | P]) of
        same -> diffr_list(Xs, Rs, Ys, Tag, I + 1, P);
        D -> D
    end.

diff(X, X, _) -> same;
diff(asn1_NOVALUE, [], _) -> same;
diff([], asn1_NOVALUE, _) -> same;
diff(X, Y, P) when is_tuple(X), is_tuple(Y), tuple_size(X) =:= tuple_size(Y),
                   tuple_size(X) > 0 ->
    diff_list(tuple_to_list(X), tuple_to_list(Y), element(1, X), 0, P);
diff(X, Y, P) when is_list(X), is_list(Y), length(X) =:= length(Y) ->
    diff_list(X, Y, list, 0, P);
diff(X, Y, P) -> {P, X, Y}.

diff_list([], [], _, _, _) -> same;
diff_list([X | Xs], [Y | Ys], Tag, I, P) ->
    case diff(X, Y, [{Tag, I} | P]) of
        same -> diff_list(Xs, Ys, Tag, I + 1, P);
        D -> D
    end.
