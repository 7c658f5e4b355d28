import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * DynamoDB Local on 127.0.0.1 only. Its launcher has no bind address and listens on every
 * interface, where anyone on the network could read the table (token hashes included) and
 * write to it with any credentials. This starts the same server from the same jar and moves
 * its one Jetty connector onto loopback before it starts. Run by shared/local/dynamodb-local.ts
 * as a single-file source program (`java LoopbackDynamoDbLocal.java <DynamoDB Local options>`).
 */
public class LoopbackDynamoDbLocal {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    java.lang.reflect.Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server jetty = (Server) field.get(proxy);
    for (Connector connector : jetty.getConnectors()) ((ServerConnector) connector).setHost("127.0.0.1");
    proxy.start();
  }
}
